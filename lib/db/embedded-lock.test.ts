import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { acquireEmbeddedLock, alive, EmbeddedDatabaseBusyError, procState, processStart, type LockInfo } from "./embedded-lock";

// The data directory's lock against real processes: a live one, a zombie (dead, not yet reaped by its parent) and a
// pid given to another process since the lock was written.

const dirs: string[] = [];
const children: ChildProcess[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fenceline-lock-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
});
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const writeLock = (dir: string, info: Partial<LockInfo>) =>
  fs.writeFileSync(path.join(dir, "db.lock"), JSON.stringify({ role: "server", port: 3000, startedAt: new Date().toISOString(), ...info }));

/** A zombie: `sh` forks a child that exits a second later, after `sh` became `sleep` (exec), which never reaps it. */
async function zombie(): Promise<number> {
  const child = spawn("sh", ["-c", "sleep 1 & echo $!; exec sleep 60"], { stdio: ["ignore", "pipe", "ignore"] });
  children.push(child);
  const pid = await new Promise<number>((resolve) => child.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString().trim()))));
  for (let i = 0; i < 500 && procState(pid)?.state !== "zombie"; i++) await new Promise((r) => setTimeout(r, 20));
  return pid;
}

describe.skipIf(!fs.existsSync("/proc/self/stat"))("the embedded database's lock", () => {
  it("is taken over when its database process and its app are zombies (killed, not yet reaped)", async () => {
    const [db, app] = [await zombie(), await zombie()];
    expect(procState(db)).toEqual({ state: "zombie" });
    const dir = tempDir();
    writeLock(dir, { pid: db, ownerPid: app });
    const release = acquireEmbeddedLock(dir, "server");
    expect(JSON.parse(fs.readFileSync(path.join(dir, "db.lock"), "utf8")).pid).toBe(process.pid);
    release();
  });

  it("is taken over when its pid now belongs to another process (the start time differs)", () => {
    const dir = tempDir();
    // This test's parent is alive, but it is not the process that wrote this lock.
    writeLock(dir, { pid: process.ppid, pidStart: "1" });
    expect(alive(process.ppid)).toBe(true);
    const release = acquireEmbeddedLock(dir, "server");
    release();
  });

  it("is refused while its process lives (and records when the holder started)", () => {
    const dir = tempDir();
    writeLock(dir, { pid: process.ppid, pidStart: processStart(process.ppid) });
    expect(() => acquireEmbeddedLock(dir, "cli")).toThrow(EmbeddedDatabaseBusyError);
    fs.rmSync(path.join(dir, "db.lock"));
    const release = acquireEmbeddedLock(dir, "cli", { ownerPid: process.ppid });
    const info = JSON.parse(fs.readFileSync(path.join(dir, "db.lock"), "utf8")) as LockInfo;
    expect(info).toMatchObject({ pid: process.pid, pidStart: processStart(process.pid), ownerPid: process.ppid, ownerStart: processStart(process.ppid) });
    expect(fs.statSync(path.join(dir, "db.lock")).mode & 0o777).toBe(0o600);
    release();
  });
});
