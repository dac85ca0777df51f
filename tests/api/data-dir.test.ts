import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { newAccount, useServer } from "../harness/client";
import { removeDataDir, startServer, type TestServer } from "../harness/server";

// DATA_DIR holds the embedded database (its WAL carries every stored webhook secret), the session secret and the admin
// token: no one but its owner may read or change any of it, whatever umask the server was started with.

const servers: TestServer[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fenceline-data-dir-"));
afterAll(async () => {
  useServer(null);
  for (const s of servers) await s.stop().catch(() => {});
  await removeDataDir(dataDir);
});

/** lstat, or null for a path that went away meanwhile (a stopped server's database process removes its socket). */
const lstatIfThere = (p: string): fs.Stats | null => {
  try {
    return fs.lstatSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
};

/** Every path under `dir` (itself included) whose mode is not 0700 (directories) or 0600 (anything else). */
function loosePaths(dir: string): string[] {
  const loose: string[] = [];
  const walk = (p: string) => {
    const stat = lstatIfThere(p);
    if (!stat || stat.isSymbolicLink()) return;
    const mode = stat.mode & 0o7777;
    if (mode !== (stat.isDirectory() ? 0o700 : 0o600)) loose.push(`${path.relative(dir, p) || "."} ${mode.toString(8)}`);
    if (stat.isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e));
  };
  walk(dir);
  return loose;
}

async function writeSomeData() {
  const a = await newAccount();
  expect((await a.api("POST", "/webhooks", { url: "https://example.com/hooks/fenceline", events: ["location.updated"] })).status).toBe(201);
  const t = (await a.api("POST", "/trackables", { name: "Private" })).body;
  const points = Array.from({ length: 200 }, (_, i) => ({ latitude: 45 + i / 1000, longitude: 5, timestamp: new Date(Date.now() - (200 - i) * 1000).toISOString() }));
  expect((await a.api("POST", `/trackables/${t.id}/locations`, { locations: points })).status).toBe(201);
}

it("DATA_DIR and everything in it are the owner's only under umask 000, an existing install's files are tightened", async () => {
  // A directory as `mkdir` makes it under a permissive umask.
  fs.chmodSync(dataDir, 0o777);
  const first = await startServer({ dataDir, umask: "000" });
  servers.push(first);
  useServer(first);
  await writeSomeData();
  // Files made while it runs (WAL, relation forks, statistics) after the writes, the secrets and the lock included.
  expect(loosePaths(dataDir)).toEqual([]);
  expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
  await first.stop();

  // An install from before: every directory 0777, every file 0666, plus a stray file and directory.
  fs.mkdirSync(path.join(dataDir, "stray-dir"), { mode: 0o777 });
  fs.writeFileSync(path.join(dataDir, "stray-dir", "note"), "x", { mode: 0o666 });
  const loosen = (p: string) => {
    const stat = lstatIfThere(p);
    if (!stat) return;
    fs.chmodSync(p, stat.isDirectory() ? 0o777 : 0o666);
    if (stat.isDirectory()) for (const e of fs.readdirSync(p)) loosen(path.join(p, e));
  };
  loosen(dataDir);
  expect(loosePaths(dataDir).length).toBeGreaterThan(process.env.DATABASE_URL ? 2 : 100);

  // On Postgres (DATABASE_URL) the first server's database went with its stop: the second gets one of its own.
  const second = await startServer({ dataDir, umask: "000" });
  servers.push(second);
  useServer(second);
  await writeSomeData();
  expect(loosePaths(dataDir)).toEqual([]);
}, 240_000);
