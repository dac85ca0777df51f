import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openUnitDb } from "@/tests/support/unit-db";
import type { Db } from "./client";
import { epochMs, queryRows } from "./rows";

// On the embedded database by default, on a scratch Postgres database with DATABASE_URL: both must give the stored
// milliseconds back exactly, since the rounds read every timestamp through epochMs and compare them as cursors.
let unit: Awaited<ReturnType<typeof openUnitDb>>;
let db: Db;
beforeAll(async () => {
  unit = await openUnitDb("epoch-ms");
  db = unit.db;
}, 120_000);
afterAll(() => unit.close());

const READ = `select ${epochMs("t")} as ms from unnest($1::text[]::timestamp(3) with time zone[]) with ordinality as u(t, i) order by i`;
const read = async (times: readonly string[]) => (await queryRows<{ ms: number | null }>(db, READ, [times])).map((r) => r.ms);

describe("epochMs", () => {
  it("gives back the stored milliseconds exactly, from year 1 to 9999", async () => {
    const MIN = Date.parse("0001-01-01T00:00:00.000Z");
    const MAX = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: MIN, max: MAX }), { minLength: 1, maxLength: 300 }), async (times) => {
        const got = await read(times.map((t) => new Date(t).toISOString()));
        expect(got).toEqual(times);
      }),
      { numRuns: 30 },
    );
  });

  it("keeps the edges: the epoch, the milliseconds around it, a leap day, and infinity and null", async () => {
    const times = ["1970-01-01T00:00:00.000Z", "1969-12-31T23:59:59.999Z", "1970-01-01T00:00:00.001Z", "2024-02-29T12:34:56.789Z", "2262-04-11T23:47:16.854Z"];
    expect(await read(times)).toEqual(times.map((t) => Date.parse(t)));
    const [inf, minusInf] = await read(["infinity", "-infinity"]);
    expect(inf).toBe(Infinity);
    expect(minusInf).toBe(-Infinity);
    expect(await queryRows<{ ms: number | null }>(db, `select ${epochMs("null::timestamptz")} as ms`, [])).toEqual([{ ms: null }]);
  });
});
