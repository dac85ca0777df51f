import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAccountMembers, renameAccount } from "@/lib/accounts/accounts";
import { UpdateAccountInput } from "@/lib/accounts/schemas";
import type { Ctx } from "@/lib/context";
import type { Db } from "@/lib/db/client";
import { accounts, memberships, trackableStates, users } from "@/lib/db/schema";
import { openUnitDb } from "@/tests/support/unit-db";
import { ingestLocations } from "@/lib/locations/locations";
import { readTrack } from "@/lib/locations/track";
import { deviceStatus, getTrackableStatuses, listTrackablePositions } from "./status";
import { createTrackable, getTrackable } from "./trackables";

// The verbs the dashboard added, against a real database opened the way the app opens it (embedded PGlite in a temp
// DATA_DIR, or a scratch database on DATABASE_URL's Postgres).
let unit: Awaited<ReturnType<typeof openUnitDb>>;
let db: Db;
let ctx: Ctx;
let other: Ctx;

beforeAll(async () => {
  unit = await openUnitDb("dashboard");
  db = unit.db;
  ctx = await unit.account("free");
  other = await unit.account("free");
}, 120_000);

afterAll(async () => unit?.close());

const at = (iso: string) => new Date(iso);

describe("deviceStatus", () => {
  const now = at("2026-11-22T12:00:00.000Z");
  const base = { now, offlineAfterS: 600 };
  it("is never before the first location", () => {
    expect(deviceStatus({ ...base, stateStatus: null, stateSeenAt: null, lastReceivedAt: null })).toEqual({ status: "never", lastSeenAt: null });
  });
  it("is online while the engine says so and the device reported within the cut-off", () => {
    const seen = at("2026-11-22T11:55:00.000Z");
    expect(deviceStatus({ ...base, stateStatus: "online", stateSeenAt: seen, lastReceivedAt: seen }).status).toBe("online");
  });
  it("is offline past the cut-off even before the sweep has run", () => {
    const seen = at("2026-11-22T11:49:59.999Z");
    expect(deviceStatus({ ...base, stateStatus: "online", stateSeenAt: seen, lastReceivedAt: seen })).toEqual({ status: "offline", lastSeenAt: seen });
  });
  it("counts a location whose evaluation is queued as online", () => {
    expect(deviceStatus({ ...base, stateStatus: null, stateSeenAt: null, lastReceivedAt: at("2026-11-22T11:59:00.000Z") }).status).toBe("online");
    expect(
      deviceStatus({ ...base, stateStatus: "offline", stateSeenAt: at("2026-11-22T10:00:00.000Z"), lastReceivedAt: at("2026-11-22T11:59:00.000Z") }).status,
    ).toBe("online");
  });
  it("keeps offline when the engine evaluated the newest receipt and did not bring it online (a stale point)", () => {
    const seen = at("2026-11-22T11:59:00.000Z");
    expect(deviceStatus({ ...base, stateStatus: "offline", stateSeenAt: seen, lastReceivedAt: at("2026-11-22T11:58:00.000Z") }).status).toBe("offline");
  });
  it("takes the later of the engine's and the newest location's receipt as last seen", () => {
    const a = at("2026-11-22T11:58:00.000Z");
    const b = at("2026-11-22T11:59:00.000Z");
    expect(deviceStatus({ ...base, stateStatus: "online", stateSeenAt: b, lastReceivedAt: a }).lastSeenAt).toEqual(b);
  });
});

describe("statuses and positions", () => {
  it("reads statuses from trackable_states for the account's trackables only", async () => {
    const seen = await createTrackable({ ctx, input: { name: "Seen", type: "vehicle", metadata: {} } });
    const quiet = await createTrackable({ ctx, input: { name: "Quiet", type: "asset", metadata: {} } });
    await ingestLocations({ ctx, trackableId: seen.id, inputs: [{ latitude: 52.5, longitude: 13.4, battery: 12 }] });
    const withLocation = await getTrackable({ ctx, id: seen.id });
    // The engine has evaluated it long ago and the sweep has marked it offline.
    // (createTrackable made its state row.)
    await db
      .update(trackableStates)
      .set({ status: "offline", lastSeenAt: at("2026-01-01T00:00:00.000Z") })
      .where(eq(trackableStates.trackableId, seen.id));
    const now = new Date();
    const statuses = await getTrackableStatuses({ ctx, trackables: [withLocation, quiet], now });
    // The location received just now is newer than the engine's state: online.
    expect(statuses.get(seen.id)?.status).toBe("online");
    expect(statuses.get(seen.id)?.lastSeenAt?.toISOString()).toBe(withLocation.lastLocation!.receivedAt);
    expect(statuses.get(quiet.id)).toEqual({ status: "never", lastSeenAt: null });
    // Another account's view of the same id has no engine state.
    const foreign = await getTrackableStatuses({ ctx: other, trackables: [{ id: seen.id, lastLocation: null }], now });
    expect(foreign.get(seen.id)?.status).toBe("never");
  });

  it("lists the newest position of each trackable that has one, scoped to the account, with a truncation flag", async () => {
    const a = await createTrackable({ ctx: other, input: { name: "A", type: "device", metadata: {} } });
    const b = await createTrackable({ ctx: other, input: { name: "B", type: "person", metadata: {} } });
    await createTrackable({ ctx: other, input: { name: "No fix", type: "device", metadata: {} } });
    await ingestLocations({
      ctx: other,
      trackableId: a.id,
      inputs: [
        { latitude: 1, longitude: 1, timestamp: at("2026-11-01T00:00:00.000Z") },
        { latitude: 2, longitude: 2, timestamp: at("2026-11-02T00:00:00.000Z") },
      ],
    });
    await ingestLocations({ ctx: other, trackableId: b.id, inputs: [{ latitude: 3, longitude: 3 }] });
    const all = await listTrackablePositions({ ctx: other });
    expect(all.truncated).toBe(false);
    expect(all.data.map((p) => [p.name, p.location.latitude])).toEqual([
      ["B", 3],
      ["A", 2],
    ]);
    expect(all.data[0]!.status).toBe("online");
    const one = await listTrackablePositions({ ctx: other, limit: 1 });
    expect(one).toMatchObject({ truncated: true, data: [{ name: "B" }] });
    expect((await listTrackablePositions({ ctx })).data.map((p) => p.name)).toEqual(["Seen"]);
  });
});

describe("readTrack", () => {
  it("reads the newest points of a range oldest first, across pages, and says when it left older ones out", async () => {
    const t = await createTrackable({ ctx, input: { name: "Track", type: "device", metadata: {} } });
    const start = Date.parse("2026-11-20T00:00:00.000Z");
    const inputs = Array.from({ length: 1205 }, (_, i) => ({ latitude: 10 + i / 10_000, longitude: 20, timestamp: new Date(start + i * 60_000) }));
    await ingestLocations({ ctx, trackableId: t.id, inputs: inputs.slice(0, 1000) });
    await ingestLocations({ ctx, trackableId: t.id, inputs: inputs.slice(1000) });

    const full = await readTrack({ ctx, trackableId: t.id, max: 2000 });
    expect(full.truncated).toBe(false);
    expect(full.points).toHaveLength(1205);
    expect(full.points[0]!.timestamp).toBe(inputs[0]!.timestamp.toISOString());
    expect(full.points.at(-1)!.timestamp).toBe(inputs[1204]!.timestamp.toISOString());

    const capped = await readTrack({ ctx, trackableId: t.id, max: 1100 });
    expect(capped.truncated).toBe(true);
    expect(capped.points).toHaveLength(1100);
    expect(capped.points[0]!.timestamp).toBe(inputs[105]!.timestamp.toISOString());

    const range = await readTrack({ ctx, trackableId: t.id, from: inputs[10]!.timestamp, to: inputs[19]!.timestamp });
    expect(range).toMatchObject({ truncated: false });
    expect(range.points.map((p) => p.timestamp)).toEqual(inputs.slice(10, 20).map((p) => p.timestamp.toISOString()));

    // Exactly `max` points in range: not truncated.
    expect((await readTrack({ ctx, trackableId: t.id, from: inputs[0]!.timestamp, to: inputs[9]!.timestamp, max: 10 })).truncated).toBe(false);
    await expect(readTrack({ ctx: other, trackableId: t.id })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("account verbs", () => {
  it("renames the workspace with the same validation the form uses", async () => {
    const parsed = UpdateAccountInput.parse({ name: "  Fleet ops  " });
    const row = await renameAccount({ ctx, input: parsed });
    expect(row.name).toBe("Fleet ops");
    const [otherRow] = await db.select().from(accounts).where(eq(accounts.id, other.account.id));
    expect(otherRow!.name).toBe("dashboard");
    expect(UpdateAccountInput.safeParse({ name: " " }).success).toBe(false);
    expect(UpdateAccountInput.safeParse({ name: "x".repeat(101) }).success).toBe(false);
  });

  it("lists the account's members in join order, without password hashes", async () => {
    const tag = randomBytes(4).toString("hex");
    const [first, second, elsewhere] = await db
      .insert(users)
      .values([
        { accountId: ctx.account.id, email: `first-${tag}@example.com`, name: "First", passwordHash: "scrypt$x" },
        { accountId: ctx.account.id, email: `second-${tag}@example.com`, name: null },
        { accountId: other.account.id, email: `elsewhere-${tag}@example.com`, name: "Elsewhere" },
      ])
      .returning();
    await db.insert(memberships).values([
      { accountId: ctx.account.id, userId: first!.id, role: "owner", createdAt: at("2026-01-01T00:00:00.000Z") },
      { accountId: ctx.account.id, userId: second!.id, role: "viewer", createdAt: at("2026-02-01T00:00:00.000Z") },
      { accountId: other.account.id, userId: elsewhere!.id, role: "owner" },
    ]);
    const members = await listAccountMembers({ ctx });
    expect(members.map((m) => [m.email, m.role])).toEqual([[`first-${tag}@example.com`, "owner"], [`second-${tag}@example.com`, "viewer"]]);
    expect(members[0]).not.toHaveProperty("passwordHash");
    expect(members[1]).toMatchObject({ name: null, lastSignInAt: null });
  });
});
