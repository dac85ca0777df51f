import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "@/lib/context";
import { newId } from "@/lib/db/ids";
import { imports, trackables } from "@/lib/db/schema";
import { openUnitDb } from "@/tests/support/unit-db";
import { ABANDONED_MS, spoolDir, spoolPath } from "./spool";
import { SPOOL_GRACE_MS, sweepSpoolFiles } from "./spool-sweep";

// The start-up sweep of DATA_DIR/imports on a real database: a file goes only when no running import reads it and it
// is older than its grace period.
let unit: Awaited<ReturnType<typeof openUnitDb>>;
let ctx: Ctx;
let trackableId: string;

beforeAll(async () => {
  // On Postgres the spool still lives under DATA_DIR: a directory of this test's own (the embedded set-up makes one).
  if (process.env.DATABASE_URL) process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "fenceline-spool-sweep-"));
  unit = await openUnitDb("spool-sweep");
  ctx = await unit.account();
  [{ id: trackableId }] = (await ctx.db.insert(trackables).values({ accountId: ctx.account.id, name: "t" }).returning({ id: trackables.id })) as [{ id: string }];
  fs.mkdirSync(spoolDir(), { recursive: true });
});
afterAll(() => unit?.close());

/** A file in the spool directory whose last write was `ageMs` before `now`. */
function file(name: string, ageMs: number, now: number): string {
  const p = path.join(spoolDir(), name);
  fs.writeFileSync(p, "<gpx/>");
  fs.utimesSync(p, new Date(now - ageMs), new Date(now - ageMs));
  return name;
}

async function importRow(status: "running" | "completed" | "failed"): Promise<string> {
  const id = newId();
  await ctx.db.insert(imports).values({ id, accountId: ctx.account.id, trackableId, format: "gpx", status });
  return id;
}

describe("sweepSpoolFiles", () => {
  it("removes old uploads no running import reads and old partial uploads; keeps the rest", async () => {
    const now = Date.now();
    const old = SPOOL_GRACE_MS + 60_000;
    const orphan = file(`${newId()}.upload`, old, now);
    const running = file(path.basename(spoolPath(await importRow("running"))), old, now);
    const ended = file(path.basename(spoolPath(await importRow("completed"))), old, now);
    const failed = file(path.basename(spoolPath(await importRow("failed"))), old, now);
    const young = file(`${newId()}.upload`, SPOOL_GRACE_MS - 60_000, now);
    const abandoned = file(`${newId()}.upload.part`, ABANDONED_MS + 60_000, now);
    const writing = file(`${newId()}.upload.part`, old, now);
    const foreign = file("notes.upload", old, now);
    const other = file("README.txt", old, now);

    const removed = await sweepSpoolFiles(ctx.db, now);
    expect(removed.sort()).toEqual([orphan, ended, failed, abandoned].sort());
    expect(fs.readdirSync(spoolDir()).sort()).toEqual([running, young, writing, foreign, other].sort());
    // Nothing more goes on a second sweep; the young orphan goes once it has outlived its grace period.
    expect(await sweepSpoolFiles(ctx.db, now)).toEqual([]);
    expect(await sweepSpoolFiles(ctx.db, now + 2 * 60_000 + 1)).toEqual([young]);
  });

  it("does nothing when the spool directory does not exist", async () => {
    fs.rmSync(spoolDir(), { recursive: true, force: true });
    expect(await sweepSpoolFiles(ctx.db)).toEqual([]);
  });
});
