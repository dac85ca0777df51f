import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openUnitDb } from "@/tests/support/unit-db";
import { analyzeGrownTables, startAutoAnalyze } from "./auto-analyze";
import type { Db } from "./client";
import { executeRows } from "./rows";

// On the embedded database by default (where this runs in the app), on a scratch Postgres database with DATABASE_URL.
let unit: Awaited<ReturnType<typeof openUnitDb>>;
let db: Db;
beforeAll(async () => {
  unit = await openUnitDb("auto-analyze");
  db = unit.db;
  await analyzeGrownTables(db); // the migrated schema's tables, as the app's first run would
  // Opening a scratch database runs every migration: like the other database tests, allow for a loaded machine.
}, 120_000);
afterAll(async () => {
  await db.execute(sql`drop table if exists auto_analyze_probe`);
  await unit.close();
});

const planned = async () =>
  (await executeRows<{ reltuples: number }>(db, sql`select reltuples::float8 as reltuples from pg_class where relname = 'auto_analyze_probe'`))[0]!.reltuples;
const fill = (from: number, to: number) =>
  db.execute(sql`insert into auto_analyze_probe select g, repeat('x', 100) from generate_series(${from}::int, ${to}::int) g`);

describe("analyzeGrownTables", () => {
  it("analyzes a table that grew by a fifth since the planner recorded it, and nothing else", async () => {
    await db.execute(sql`create table auto_analyze_probe (id int primary key, filler text)`);
    expect(await analyzeGrownTables(db)).toEqual([]); // empty: nothing to do
    await fill(1, 10_000);
    expect(await planned()).toBe(-1); // never analyzed
    expect(await analyzeGrownTables(db)).toEqual(["auto_analyze_probe"]);
    expect(await planned()).toBe(10_000);
    expect(await analyzeGrownTables(db)).toEqual([]); // nothing grew since

    await fill(10_001, 11_000); // +10 %: not yet
    expect(await analyzeGrownTables(db)).toEqual([]);
    expect(await planned()).toBe(10_000);
    await fill(11_001, 13_000); // +30 % in all
    expect(await analyzeGrownTables(db)).toEqual(["auto_analyze_probe"]);
    expect(await planned()).toBe(13_000);
  });

  it("the planner's estimates follow the table after the analysis, not before", async () => {
    // Statistics taken when k took five values: k = 3 is a fifth of the table.
    await db.execute(sql`create table auto_analyze_plan (id int, k int)`);
    await db.execute(sql`create index auto_analyze_plan_k on auto_analyze_plan (k)`);
    await db.execute(sql`insert into auto_analyze_plan select g, g % 5 from generate_series(1, 1000) g`);
    await db.execute(sql`analyze auto_analyze_plan`);
    const estimate = async () => {
      const [row] = await executeRows<{ "QUERY PLAN": unknown }>(db, sql`explain (format json) select * from auto_analyze_plan where k = 3`);
      const plan = row!["QUERY PLAN"];
      const parsed = (typeof plan === "string" ? JSON.parse(plan) : plan) as Array<{ Plan: { "Plan Rows": number } }>;
      return parsed[0]!.Plan["Plan Rows"];
    };
    expect(await estimate()).toBeGreaterThan(150);
    // 200,000 rows more, each with a k of its own: k = 3 is now 201 rows, but the old statistics still say a fifth.
    await db.execute(sql`insert into auto_analyze_plan select g, g from generate_series(1001, 201000) g`);
    expect(await estimate()).toBeGreaterThan(10_000);
    expect(await analyzeGrownTables(db)).toEqual(["auto_analyze_plan"]);
    expect(await estimate()).toBeLessThan(1_000);
    await db.execute(sql`drop table auto_analyze_plan`);
  });
});

describe("startAutoAnalyze", () => {
  it("runs on its timer until stopped", async () => {
    await db.execute(sql`create table if not exists auto_analyze_probe (id int primary key, filler text)`);
    await fill(100_001, 120_000);
    const stop = startAutoAnalyze(db, { everyMs: 20 });
    try {
      await expect.poll(planned, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(30_000);
    } finally {
      stop();
    }
  });
});
