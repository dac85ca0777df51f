import { eq, inArray, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "@/lib/context";
import { preparing, type Db } from "@/lib/db/client";
import * as schema from "@/lib/db/schema";
import { deviceTokens, jobs, locations, trackables } from "@/lib/db/schema";
import { openUnitDb } from "@/tests/support/unit-db";
import { ingestLocations } from "./locations";
import type { Location } from "./schemas";

// Concurrent posts stored by group statements (lib/locations/group-insert.ts), on the database the tests run on
// (embedded PGlite, or Postgres with DATABASE_URL): each post answered with its own rows, per-post refusals answered
// per post, a failing row among good ones failing only its own post, nothing stored twice.
let unit: Awaited<ReturnType<typeof openUnitDb>>;
let db: Db;
beforeAll(async () => {
  unit = await openUnitDb("group-insert");
  db = unit.db;
}, 120_000);
afterAll(async () => {
  await unit?.close();
}, 60_000);

async function trackable(ctx: Ctx, tracking: "active" | "paused" = "active") {
  const [t] = await db.insert(trackables).values({ accountId: ctx.account.id, name: "Van", tracking }).returning();
  const [token] = await db.insert(deviceTokens).values({ trackableId: t!.id, name: "phone", hash: `h-${t!.id}`, prefix: "fldev" }).returning();
  return { trackableId: t!.id, tokenId: token!.id };
}

const storedOf = (ids: string[]) => db.select().from(locations).where(inArray(locations.trackableId, ids));
/** How each promise ended, in order. */
const settle = <T>(ps: Promise<T>[]) => Promise.allSettled(ps);

describe("concurrent posts stored in groups", () => {
  it("200 concurrent API posts: 200 rows, each answer its own point, one evaluation queued per trackable", async () => {
    const ctx = await unit.account();
    const ts = await Promise.all(Array.from({ length: 4 }, () => trackable(ctx)));
    const ids = ts.map((t) => t.trackableId);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        ingestLocations({ ctx, trackableId: ids[i % 4]!, inputs: [{ latitude: 10 + i / 1000, longitude: 20, accuracy: i }] }),
      ),
    );
    answers.forEach((answer, i) => {
      expect(answer).toHaveLength(1);
      expect(answer[0]).toMatchObject({ trackableId: ids[i % 4], latitude: 10 + i / 1000, longitude: 20, accuracy: i, source: "api" });
    });
    const rows = await storedOf(ids);
    expect(rows).toHaveLength(200);
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(answers.map((a) => a[0]!.id)));
    const queued = await db.select().from(jobs).where(inArray(jobs.dedupeKey, ids.map((id) => `evaluate:${id}`)));
    expect(new Set(queued.map((j) => j.dedupeKey))).toEqual(new Set(ids.map((id) => `evaluate:${id}`)));
  });

  it("200 concurrent device posts with resends among them: each point stored once, the first post of it answered with it", async () => {
    const ctx = await unit.account();
    const t = await trackable(ctx);
    const at = new Date("2026-11-27T10:00:00Z");
    // 100 distinct points, each posted twice at the same moment.
    const posts = Array.from({ length: 200 }, (_, i) =>
      ingestLocations({
        ctx,
        trackableId: t.trackableId,
        inputs: [{ latitude: 1 + (i % 100) / 1000, longitude: 2, timestamp: new Date(at.getTime() + (i % 100) * 1000) }],
        source: { kind: "device", app: "owntracks", tokenId: t.tokenId },
      }),
    );
    const answers = await Promise.all(posts);
    const rows = await storedOf([t.trackableId]);
    expect(rows).toHaveLength(100);
    const answered = answers.flat();
    expect(answered).toHaveLength(100);
    expect(new Set(answered.map((a) => a.id))).toEqual(new Set(rows.map((r) => r.id)));
    answers.forEach((answer, i) => {
      for (const a of answer) expect(a.latitude).toBe(1 + (i % 100) / 1000);
    });
    // A resend after the fact stores nothing.
    const again = await ingestLocations({ ctx, trackableId: t.trackableId, inputs: [{ latitude: 1, longitude: 2, timestamp: at }], source: { kind: "device", app: "owntracks", tokenId: t.tokenId } });
    expect(again).toEqual([]);
  });

  it("per-post refusals among good posts: another account's trackable (404), a revoked token (401), paused tracking (nothing stored)", async () => {
    const ctx = await unit.account();
    const other = await unit.account();
    const good = await trackable(ctx);
    const foreign = await trackable(other);
    const paused = await trackable(ctx, "paused");
    const revoked = await trackable(ctx);
    await db.delete(deviceTokens).where(eq(deviceTokens.id, revoked.tokenId));
    const device = (t: { trackableId: string; tokenId: string }, i: number) =>
      ingestLocations({ ctx, trackableId: t.trackableId, inputs: [{ latitude: 3, longitude: 4 + i / 100, timestamp: new Date() }], source: { kind: "device", app: "traccar", tokenId: t.tokenId } });
    const api = (t: { trackableId: string }, i: number) => ingestLocations({ ctx, trackableId: t.trackableId, inputs: [{ latitude: 5, longitude: 6 + i / 100 }] });
    const results = await settle<Location[]>(
      Array.from({ length: 40 }, (_, i) => {
        switch (i % 5) {
          case 0: return api(good, i);
          case 1: return api(foreign, i);
          case 2: return api(paused, i);
          case 3: return device(revoked, i);
          default: return device(good, i);
        }
      }),
    );
    results.forEach((r, i) => {
      if (i % 5 === 0 || i % 5 === 4) {
        expect(r.status).toBe("fulfilled");
        expect((r as PromiseFulfilledResult<Location[]>).value).toHaveLength(1);
      } else if (i % 5 === 1) expect(r).toMatchObject({ status: "rejected", reason: { status: 404 } });
      else if (i % 5 === 2) expect(r).toEqual({ status: "fulfilled", value: [] });
      else expect(r).toMatchObject({ status: "rejected", reason: { status: 401 } });
    });
    expect(await storedOf([good.trackableId])).toHaveLength(16);
    expect(await storedOf([foreign.trackableId, paused.trackableId, revoked.trackableId])).toEqual([]);
  });

  it("a row the database refuses among good ones: only its post fails, the others are stored once", async () => {
    const ctx = await unit.account();
    const t = await trackable(ctx);
    // Year 5000 BC: a valid JavaScript date that timestamptz cannot hold, so the shared statement fails on it.
    const tooOld = new Date(Date.UTC(-5000, 0, 1));
    const results = await settle(
      Array.from({ length: 30 }, (_, i) =>
        ingestLocations({ ctx, trackableId: t.trackableId, inputs: [{ latitude: 7, longitude: 8 + i / 100, timestamp: i === 13 ? tooOld : new Date() }] }),
      ),
    );
    results.forEach((r, i) => expect(r.status).toBe(i === 13 ? "rejected" : "fulfilled"));
    const rows = await storedOf([t.trackableId]);
    expect(rows).toHaveLength(29);
    const answered = results.flatMap((r) => (r.status === "fulfilled" ? r.value.map((l) => l.id) : []));
    expect(new Set(answered)).toEqual(new Set(rows.map((r) => r.id)));
  });

  it("a group takes points of several sizes: batches and single points in one statement keep each post's points in order", async () => {
    const ctx = await unit.account();
    const t = await trackable(ctx);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ingestLocations({
          ctx,
          trackableId: t.trackableId,
          inputs: Array.from({ length: 1 + (i % 7) * 10 }, (_, j) => ({ latitude: i, longitude: j / 100, timestamp: new Date(Date.UTC(2026, 10, 27, 0, 0, j)) })),
        }),
      ),
    );
    answers.forEach((answer, i) => {
      expect(answer.map((a) => [a.latitude, a.longitude])).toEqual(Array.from({ length: 1 + (i % 7) * 10 }, (_, j) => [i, j / 100]));
    });
    const [{ n }] = (await db.execute(sql`select count(*)::int as n from locations where trackable_id = ${t.trackableId}`)) as unknown as [{ n: number }];
    expect(n).toBe(answers.flat().length);
  });

  // The embedded database serves one connection (the test's own): a second client to end mid-flight needs Postgres.
  it.runIf(process.env.DATABASE_URL)("the database going away mid-group: every waiting post gets an error, none a success that was not stored", async () => {
    const ctx = await unit.account();
    const t = await trackable(ctx);
    // A client of its own, ended while its posts are in flight: the groups running, those gathering and their retries all fail.
    const client = postgres(process.env.DATABASE_URL!, { max: 4, onnotice: () => {} });
    // Its four connections open first: postgres.js reads the array types on each new connection in a promise it
    // never awaits, and one ended during that read is an unhandled rejection, not a failed post.
    await Promise.all(Array.from({ length: 4 }, () => client`select pg_sleep(0.05)`));
    const own: Ctx = { ...ctx, db: drizzle({ client: preparing(client), schema }) as unknown as Db };
    const posts = Array.from({ length: 300 }, (_, i) => ingestLocations({ ctx: own, trackableId: t.trackableId, inputs: [{ latitude: 9, longitude: i / 1000 }] }));
    await Promise.race(posts);
    await client.end({ timeout: 0 });
    const results = await settle(posts);
    const acknowledged = results.flatMap((r) => (r.status === "fulfilled" ? r.value.map((l) => l.id) : []));
    const failed = results.filter((r) => r.status === "rejected").length;
    expect(failed).toBeGreaterThan(0);
    expect(acknowledged.length + failed).toBe(300);
    const rows = await storedOf([t.trackableId]);
    const storedIds = new Set(rows.map((r) => r.id));
    expect(storedIds.size).toBe(rows.length);
    for (const id of acknowledged) expect(storedIds.has(id)).toBe(true);
  });
});
