import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isArrayTypesReadFailure } from "./driver-guard";

// The driver's array-types read, as postgres.js sends it and as its errors carry it.
const READ = `
      select b.oid, b.typarray
      from pg_catalog.pg_type a
      left join pg_catalog.pg_type b on b.oid = a.typelem
      where a.typcategory = 'A'
      group by b.oid, b.typarray
      order by b.oid
    `;

describe("the driver's array-types read", () => {
  it("is told apart from every other rejection", () => {
    expect(isArrayTypesReadFailure(Object.assign(new Error("write CONNECTION_DESTROYED"), { code: "CONNECTION_DESTROYED", query: READ }))).toBe(true);
    expect(isArrayTypesReadFailure(Object.assign(new Error("canceling statement"), { code: "57014", query: "select * from locations" }))).toBe(false);
    expect(isArrayTypesReadFailure(new Error("an unrelated failure"))).toBe(false);
    for (const reason of [null, undefined, "text", 42, { query: 1 }]) expect(isArrayTypesReadFailure(reason)).toBe(false);
  });

  // A process whose first connection fails during that read (tests/support/driver-guard-child.ts), on the real driver.
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, ["--import", "tsx", "tests/support/driver-guard-child.ts"], {
      env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL, ...env },
      encoding: "utf8",
      timeout: 30_000,
    });

  it.runIf(process.env.DATABASE_URL)("ends an unguarded process, and a guarded one only warns; other rejections still end it", () => {
    const unguarded = run({ GUARD: "0" });
    expect(unguarded.status).not.toBe(0);
    expect(unguarded.stdout).not.toContain("still running");

    const guarded = run({ GUARD: "1" });
    expect(guarded.status, guarded.stderr).toBe(0);
    expect(guarded.stdout).toContain("failed while reading the array types");
    expect(guarded.stdout).toContain("done");

    const other = run({ GUARD: "1", OTHER: "1" });
    expect(other.status).not.toBe(0);
    expect(other.stdout).toContain("still running");
    expect(other.stdout).not.toContain("done");
    expect(other.stderr).toContain("an unrelated failure");
  });
});
