import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteAccounts } from "@/lib/accounts/accounts";
import type { Ctx } from "@/lib/context";
import { queryRows } from "@/lib/db/rows";
import { openUnitDb } from "@/tests/support/unit-db";
import { createTrackable, deleteTrackable } from "@/lib/trackables/trackables";

// locations has no foreign key to trackables (a per-row check cost a third of a batch's insert): every statement that
// stores locations announces them in motion_inbox, whose foreign key checks and key-share locks each trackable once,
// and a trigger on trackables deletes a deleted trackable's locations. The same guarantees as the foreign key's.

let unit: Awaited<ReturnType<typeof openUnitDb>>;
beforeAll(async () => {
  unit = await openUnitDb("location-integrity");
}, 120_000);
afterAll(async () => unit?.close(), 60_000);

/** One statement storing three locations for each trackable of $1. */
const INSERT = `insert into locations (id, trackable_id, latitude, longitude, timestamp)
   select gen_random_uuid(), t, 52 + g * 0.001, 13, timestamptz '2026-11-01T08:00:00Z' + g * interval '1 s'
   from unnest($1::uuid[]) as t, generate_series(1, 3) as g`;
const insert = (trackableIds: readonly string[]) => queryRows(unit.db, INSERT, [[...trackableIds]]);

async function locationsOf(trackableIds: readonly string[]): Promise<number> {
  const [row] = await queryRows<{ n: number }>(unit.db, `select count(*)::int as n from locations where trackable_id = any($1::uuid[])`, [[...trackableIds]]);
  return row!.n;
}

async function trackable(ctx: Ctx, name: string): Promise<string> {
  return (await createTrackable({ ctx, input: { name, type: "device", metadata: {} } })).id;
}

describe("a location's trackable", () => {
  it("must exist: a statement with a location of no trackable stores none of its locations", async () => {
    const ctx = await unit.account();
    const real = await trackable(ctx, "real");
    const gone = "00000000-0000-7000-8000-00000000dead";
    await expect(insert([real, gone])).rejects.toMatchObject({ code: "23503" });
    expect(await locationsOf([real, gone])).toBe(0);
    await insert([real]);
    expect(await locationsOf([real])).toBe(3);
  });

  it("takes its locations along when it is deleted, alone or with its account", async () => {
    const ctx = await unit.account();
    const [one, two, kept] = [await trackable(ctx, "one"), await trackable(ctx, "two"), await trackable(ctx, "kept")];
    await insert([one, two, kept]);
    await deleteTrackable({ ctx, id: one });
    expect([await locationsOf([one]), await locationsOf([two]), await locationsOf([kept])]).toEqual([0, 3, 3]);

    const other = await unit.account();
    const theirs = await trackable(other, "theirs");
    await insert([theirs]);
    await deleteAccounts(unit.db, [ctx.account.id]);
    expect([await locationsOf([two, kept]), await locationsOf([theirs])]).toEqual([0, 3]);
  });
});

// Two transactions at once need two connections: the embedded database serves one, so these run on Postgres (CI's
// step 3 runs this file there).
describe.skipIf(!process.env.DATABASE_URL)("a location's trackable, against a concurrent delete", () => {
  let sql: postgres.Sql;
  beforeAll(() => {
    sql = postgres(process.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
  });
  afterAll(async () => sql?.end());

  /** Runs `race` on two connections of their own (a transaction each), released afterwards. */
  const onTwoConnections = async (race: (first: postgres.ReservedSql, second: postgres.ReservedSql) => Promise<void>) => {
    const [first, second] = [await sql.reserve(), await sql.reserve()];
    try {
      await race(first, second);
    } finally {
      first.release();
      second.release();
    }
  };

  /** Whether a query is still waiting (for a lock) after a moment. */
  const waiting = async (query: Promise<unknown>) => {
    const pending = Symbol("pending");
    return (await Promise.race([query.then(() => null, () => null), new Promise((r) => setTimeout(() => r(pending), 300))])) === pending;
  };

  it("a delete waits for an insert in progress, then takes the locations it committed", async () => {
    const ctx = await unit.account();
    const id = await trackable(ctx, "racing");
    await onTwoConnections(async (storing, deleting) => {
      await storing.unsafe("begin");
      await storing.unsafe(INSERT, [[id]]);
      const deleted = deleting`delete from trackables where id = ${id}`;
      expect(await waiting(deleted)).toBe(true);
      await storing.unsafe("commit");
      await deleted;
    });
    expect(await locationsOf([id])).toBe(0);
  });

  it("an insert waits for a delete in progress, then fails and leaves nothing", async () => {
    const ctx = await unit.account();
    const id = await trackable(ctx, "racing");
    await onTwoConnections(async (deleting, storing) => {
      await deleting.unsafe("begin");
      await deleting`delete from trackables where id = ${id}`;
      const stored = storing.unsafe(INSERT, [[id]]);
      stored.catch(() => undefined);
      expect(await waiting(stored)).toBe(true);
      await deleting.unsafe("commit");
      await expect(stored).rejects.toMatchObject({ code: "23503" });
    });
    expect(await locationsOf([id])).toBe(0);
  });
});
