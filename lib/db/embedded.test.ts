import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDbHandle } from "./client";
import { alive, readEmbeddedLock } from "./embedded-lock";
import { executeRows } from "./rows";

// The embedded database runs in a process of its own (lib/db/embedded-server.ts) and the app reaches it with
// postgres.js over a Unix socket (so PGlite's work never blocks HTTP). These tests open it as the app does, in temp data directories.

const dirs: string[] = [];
const holders: ChildProcess[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fenceline-embedded-"));
  dirs.push(dir);
  return dir;
};
// Also after a failed test: its holders are stopped and each directory goes once its database process has closed.
afterAll(async () => {
  for (const h of holders) h.kill("SIGKILL");
  for (const d of dirs) {
    const until = Date.now() + 20_000;
    while (readEmbeddedLock(d) && Date.now() < until) await sleep(50);
    fs.rmSync(d, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}, 30_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** tests/support/embedded-holder.ts on `dir`: resolves with its first line of output ("ready <pid>" or "busy …"). */
function holder(dir: string, mode = ""): { child: ChildProcess; line: Promise<string> } {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(process.cwd(), "tests/support/embedded-holder.ts")], {
    env: { ...process.env, DATA_DIR: dir, DATABASE_URL: "", HOLDER_MODE: mode },
    stdio: ["ignore", "pipe", "pipe"],
  });
  holders.push(child);
  let out = "";
  const line = new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0]!);
    });
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    child.once("exit", (code) => reject(new Error(`holder exited (${code}) before a line:\n${out}`)));
  });
  return { child, line };
}

describe.skipIf(!!process.env.DATABASE_URL)("the embedded database in its own process", () => {
  it("never blocks the app's event loop: a 2 s query runs while timers keep firing, and other queries wait for a transaction", async () => {
    // DATA_DIR is read once per process (lib/config/env.ts): this test file's own process opens only this one.
    process.env.DATA_DIR = tempDir();
    const { db, kind } = await getDbHandle("cli");
    expect(kind).toBe("pglite");
    try {
      // The largest gap between 10 ms timers while PGlite works for a while in the other process.
      let last = performance.now();
      let worst = 0;
      const timer = setInterval(() => {
        const now = performance.now();
        worst = Math.max(worst, now - last);
        last = now;
      }, 10);
      const started = performance.now();
      const [{ n }] = (await executeRows<{ n: number }>(db, sql`select count(*)::int as n from generate_series(1, 3000000) a, lateral (select md5(a::text)) b`)) as [{ n: number }];
      const tookMs = performance.now() - started;
      clearInterval(timer);
      expect(n).toBe(3_000_000);
      expect(tookMs).toBeGreaterThan(200);
      // In-process PGlite would freeze the loop for the whole query; here the loop only waits for its turn.
      expect(worst).toBeLessThan(Math.max(100, tookMs / 4));

      // A transaction holds the one connection: a query from elsewhere waits for it, then runs (no deadlock).
      await db.execute(sql`create table if not exists waits (v int)`);
      const order: string[] = [];
      let outside!: Promise<unknown>;
      await db.transaction(async (tx) => {
        await tx.execute(sql`insert into waits values (1)`);
        outside = db.execute(sql`select count(*) from waits`).then(() => order.push("outside"));
        await sleep(200);
        await tx.execute(sql`insert into waits values (2)`);
        order.push("transaction");
      });
      await outside;
      expect(order).toEqual(["transaction", "outside"]);
      expect(await executeRows<{ n: number }>(db, sql`select count(*)::int as n from waits`)).toEqual([{ n: 2 }]);

      // Its memory settings (embedded-server.ts): a quarter of Postgres's default shared buffers.
      expect(await executeRows(db, sql`select current_setting('shared_buffers') as "sharedBuffers"`)).toEqual([{ sharedBuffers: "32MB" }]);
    } finally {
      await closeDb();
    }
  }, 120_000);

  it("kill -9 of the app: its database process closes PGlite and exits; the data reopens intact; one process at a time", async () => {
    const dir = tempDir();
    const first = holder(dir);
    const ready = await first.line;
    expect(ready).toMatch(/^ready \d+$/);
    const dbPid = Number(ready.split(" ")[1]);
    expect(alive(dbPid)).toBe(true);

    // A second app on the same data directory is refused while the first runs.
    const second = holder(dir);
    expect(await second.line).toMatch(/^busy The embedded database in .* is in use by process \d+ \(server\)/);

    await sleep(1500); // writing all the while
    first.child.kill("SIGKILL");
    const deadline = Date.now() + 20_000;
    while (alive(dbPid) && Date.now() < deadline) await sleep(100);
    expect(alive(dbPid), "the database process outlived its app").toBe(false);

    // Reopened at once by a new app (recovery, migrations) with the committed transactions, whole.
    const again = holder(dir, "count");
    const counted = await again.line;
    expect(counted).toMatch(/^count \d+$/);
    const n = Number(counted.split(" ")[1]);
    expect(n).toBeGreaterThan(0);
    expect(n % 50).toBe(0);
    await new Promise((r) => (again.child.exitCode === null ? again.child.once("exit", r) : r(null)));
    expect(again.child.exitCode).toBe(0);
  }, 120_000);

  it("a new data directory is made aside and renamed when whole: a start killed while making it leaves none half-made", async () => {
    const dir = tempDir();
    const first = holder(dir);
    first.line.catch(() => {}); // it fails: its database process is killed below
    const scratch = path.join(dir, "db.initialising");
    const deadline = Date.now() + 60_000;
    while (!fs.existsSync(scratch) && Date.now() < deadline) await sleep(10);
    expect(fs.existsSync(scratch), "no data directory was being made aside").toBe(true);
    expect(fs.existsSync(path.join(dir, "db", "PG_VERSION"))).toBe(false);
    // The database process dies half-way (its lock names it); the process making the directory stops with it.
    const dbPid = readEmbeddedLock(dir)!.pid;
    process.kill(dbPid, "SIGKILL");
    await new Promise((r) => (first.child.exitCode === null ? first.child.once("exit", r) : r(null)));
    expect(fs.existsSync(path.join(dir, "db", "PG_VERSION"))).toBe(false);

    // The next start makes it again, whole, and leaves nothing aside.
    const again = holder(dir, "count");
    expect(await again.line).toBe("count 0");
    expect(fs.existsSync(path.join(dir, "db", "PG_VERSION"))).toBe(true);
    expect(fs.existsSync(scratch)).toBe(false);
  }, 120_000);
});
