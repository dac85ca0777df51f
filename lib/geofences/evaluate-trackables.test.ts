import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/db/ids";
import {
  events,
  geofenceMemberships,
  geofencePendingCrossings,
  geofences,
  locations,
  trackableStates,
  trackables,
  webhookDeliveries,
  webhooks,
} from "@/lib/db/schema";
import { openUnitDb } from "@/tests/support/unit-db";
import { EVALUATION_BATCH, evaluateTrackable, evaluateTrackables } from "./evaluate-trackable";

// The coalesced evaluation (many trackables in one round) must decide exactly what evaluating each trackable alone
// decides: the same events, memberships, pending crossings, states and deliveries. Each trackable has a twin in the
// same account with the same points; the twins are evaluated one by one, the originals all together.

let unit: Awaited<ReturnType<typeof openUnitDb>>;

beforeAll(async () => {
  delete process.env.INNGEST_DEV;
  unit = await openUnitDb("coalesced");
}, 120_000);

afterAll(async () => unit?.close());

const T0 = Date.parse("2026-11-23T08:00:00.000Z");

/** Fences around (1, 1) with every noise setting: a plain circle, a debounced polygon with dwell, a buffered circle. */
async function fencesFor(accountId: string) {
  const d = 0.005;
  const square: [number, number][] = [
    [1 - d, 1 - d],
    [1 + d, 1 - d],
    [1 + d, 1 + d],
    [1 - d, 1 + d],
    [1 - d, 1 - d],
  ];
  await unit.db.insert(geofences).values([
    { accountId, name: "Plain", latitude: 1, longitude: 1, radius: 500 },
    { accountId, name: "Square", shape: "polygon", geometry: { type: "Polygon", coordinates: [square] }, latitude: 1, longitude: 1, radius: 800, debounceSeconds: 5, dwellSeconds: 10 },
    { accountId, name: "Buffered", latitude: 1.008, longitude: 1, radius: 300, exitBuffer: 50, maxAccuracy: 30 },
  ]);
}

/**
 * A walk north through the fences and back with jitter at the edges, some fixes too inaccurate for "Buffered", and a
 * low battery reading; `seed` shifts it so that every trackable crosses at its own moments.
 */
function walk(seed: number, count: number) {
  return Array.from({ length: count }, (_, i) => {
    const phase = (i + seed * 7) % 120;
    const north = phase < 60 ? phase : 120 - phase;
    const jitter = i % 3 === 0 ? 0.0004 : -0.0002;
    return {
      latitude: 0.99 + north * 0.0004 + jitter,
      longitude: 1 + (seed % 5) * 0.0003,
      accuracy: i % 11 === 0 ? 45 : 8,
      battery: i === 40 + seed ? 12 : 80,
      timestamp: new Date(T0 + i * 2000),
    };
  });
}

/** What evaluation left for a trackable, comparable between twins. */
async function outcome(trackableId: string) {
  const ev = await unit.db.select().from(events).where(eq(events.trackableId, trackableId)).orderBy(asc(events.occurredAt), asc(events.id));
  const members = await unit.db.select().from(geofenceMemberships).where(eq(geofenceMemberships.trackableId, trackableId)).orderBy(asc(geofenceMemberships.geofenceId));
  const pending = await unit.db.select().from(geofencePendingCrossings).where(eq(geofencePendingCrossings.trackableId, trackableId)).orderBy(asc(geofencePendingCrossings.geofenceId));
  const [state] = await unit.db.select().from(trackableStates).where(eq(trackableStates.trackableId, trackableId));
  const deliveries = await unit.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.trackableId, trackableId)).orderBy(asc(webhookDeliveries.id));
  const pointIndex = new Map(
    (await unit.db.select({ id: locations.id }).from(locations).where(eq(locations.trackableId, trackableId)).orderBy(asc(locations.timestamp), asc(locations.id))).map(
      (r, i) => [r.id, i],
    ),
  );
  return {
    events: ev.map((e) => ({ type: e.type, geofenceId: e.geofenceId, occurredAt: e.occurredAt.toISOString(), location: e.location, reason: e.reason, durationSeconds: e.durationSeconds, confidence: e.confidence })),
    members: members.map((m) => ({ geofenceId: m.geofenceId, point: pointIndex.get(m.locationId), enteredAt: m.enteredAt.toISOString(), dwelt: m.dwelt })),
    pending: pending.map((p) => ({ geofenceId: p.geofenceId, point: pointIndex.get(p.locationId), timestamp: p.timestamp.toISOString() })),
    state: { point: pointIndex.get(state!.evaluatedLocationId!), status: state!.status, battery: state!.battery, lastSeenAt: state!.lastSeenAt?.toISOString() },
    deliveries: deliveries.map((d) => ({ event: d.event, url: d.url, payload: JSON.stringify(d.payload).replaceAll(trackableId, "<trackable>") })),
  };
}

describe("coalesced evaluation", () => {
  it("decides for many trackables in one round exactly what each decides alone, across rounds and accounts", async () => {
    const enterprise = await unit.account("enterprise");
    const free = await unit.account("free");
    await unit.db.insert(webhooks).values({ accountId: enterprise.account.id, url: "https://hooks.example.com/all", events: ["geofence.entry", "geofence.exit", "geofence.dwell", "battery.low", "device.status_changed"] });
    for (const ctx of [enterprise, free]) await fencesFor(ctx.account.id);
    // 24 trackables and their twins; 130 points each, in two posts: the first, 24 × 100 points, is more than one
    // round's EVALUATION_BATCH, so each trackable's share of a round leaves it points for the next.
    const pairs: Array<{ together: string; alone: string }> = [];
    for (let i = 0; i < 24; i++) {
      const accountId = (i % 2 ? free : enterprise).account.id;
      // Twins share a name (payloads carry it) and differ in id only.
      const [a, b] = await unit.db.insert(trackables).values([{ accountId, name: `Walker ${i}` }, { accountId, name: `Walker ${i}` }]).returning();
      pairs.push({ together: a!.id, alone: b!.id });
    }
    const points = pairs.map((_, i) => walk(i, 130));
    const post = async (from: number, to: number) => {
      const rows = pairs.flatMap((p, i) => points[i]!.slice(from, to).flatMap((pt) => [p.together, p.alone].map((trackableId) => ({ id: newId(), trackableId, ...pt, receivedAt: new Date(T0 + to * 2000) }))));
      await unit.db.insert(locations).values(rows);
    };
    const evaluate = async () => {
      let rounds = 0;
      let ids = pairs.map((p) => p.together);
      while (ids.length > 0) {
        ids = (await evaluateTrackables(ids)).more;
        rounds++;
      }
      for (const p of pairs) while ((await evaluateTrackable(p.alone)).more);
      return rounds;
    };
    await post(0, 100);
    expect(await evaluate()).toBe(Math.ceil(100 / Math.floor(EVALUATION_BATCH / 24)));
    await post(100, 130);
    await evaluate();

    let entries = 0;
    for (const p of pairs) {
      const together = await outcome(p.together);
      expect(together).toEqual(await outcome(p.alone));
      entries += together.events.filter((e) => e.type === "geofence.entry").length;
      expect(together.state.point).toBe(129);
    }
    // The walk did cross: entries, exits, dwells, a debounced crossing and battery.low, for each account.
    const all = await unit.db.select({ type: events.type, accountId: events.accountId }).from(events).where(inArray(events.trackableId, pairs.map((p) => p.together)));
    for (const ctx of [enterprise, free]) {
      const types = new Set(all.filter((e) => e.accountId === ctx.account.id).map((e) => e.type));
      expect([...types].sort()).toEqual(["battery.low", "device.status_changed", "geofence.dwell", "geofence.entry", "geofence.exit", "trip.started"]);
    }
    expect(entries).toBeGreaterThan(24);
  });

  it("leaves deleted trackables out and creates the state rows it needs", async () => {
    const ctx = await unit.account("free");
    const [a, b] = await unit.db.insert(trackables).values([{ accountId: ctx.account.id, name: "Kept" }, { accountId: ctx.account.id, name: "Gone" }]).returning();
    await unit.db.insert(locations).values([a!, b!].map((t) => ({ trackableId: t.id, latitude: 5, longitude: 5, timestamp: new Date(T0) })));
    await unit.db.delete(trackables).where(eq(trackables.id, b!.id));
    const result = await evaluateTrackables([a!.id, b!.id, a!.id]);
    expect(result).toMatchObject({ evaluated: 1, more: [] });
    const states = await unit.db.select().from(trackableStates).where(inArray(trackableStates.trackableId, [a!.id, b!.id]));
    expect(states.map((s) => [s.trackableId, s.status])).toEqual([[a!.id, "online"]]);
  });
});
