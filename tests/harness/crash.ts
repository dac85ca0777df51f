import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { useServer } from "./client";
import { removeDataDir, startServer, type TestServer } from "./server";

// Crash tests kill a server (kill -9) and start it again on the same data: its data directory (PGlite) and, when the
// suite runs on Postgres, the first server's scratch database. That first server drops the database when it stops, so
// after each test the servers stop newest first, then the data directories go.

export interface CrashServers {
  /** A new data directory, `fenceline-<name>-…` in the temporary folder, removed after the test. */
  dataDir(name: string): string;
  /** Starts the test's first server on a new data directory (and, on Postgres, a database of its own); requests go to it. */
  start(opts: { name: string; env?: Record<string, string> }): Promise<TestServer>;
  /** kill -9 of the newest server: it dies at once and leaves its data behind. */
  kill(): Promise<void>;
  /** Starts the server again, with the first one's settings, on the same data once the newest is dead; requests go to it. */
  restart(): Promise<TestServer>;
  /** Starts a second server on the first one's Postgres database while the first runs (a data directory of its own); requests go to it. */
  beside(): Promise<TestServer>;
}

/** The servers of a test file's crash tests; call it at the top of the file (it cleans up after each test). */
export function crashServers(): CrashServers {
  let servers: TestServer[] = [];
  let dirs: string[] = [];
  let env: Record<string, string> | undefined;

  afterEach(async () => {
    useServer(null);
    for (const s of servers.reverse()) await s.stop().catch(() => {});
    for (const dir of dirs) await removeDataDir(dir);
    servers = [];
    dirs = [];
    env = undefined;
  });

  const started = (which: 0 | -1) => {
    const server = servers.at(which);
    if (!server) throw new Error("no server started yet: call start() first");
    return server;
  };
  const dataDir = (name: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `fenceline-${name}-`));
    dirs.push(dir);
    return dir;
  };
  const serve = async (opts: Parameters<typeof startServer>[0]) => {
    const server = await startServer(opts);
    servers.push(server);
    useServer(server);
    return server;
  };

  return {
    dataDir,
    async start(opts) {
      if (servers.length > 0) throw new Error("start() begins a test's servers: restart() or beside() for the next");
      env = opts.env;
      return serve({ env, dataDir: dataDir(opts.name) });
    },
    async kill() {
      await started(-1).kill();
    },
    async restart() {
      const newest = started(-1).process;
      // Two servers must never open one data directory at once.
      if (newest.exitCode === null && newest.signalCode === null) throw new Error("restart() while the newest server runs: kill() it first");
      const { dataDir: dir, databaseUrl } = started(0);
      return serve({ env, dataDir: dir, databaseUrl: databaseUrl ?? undefined });
    },
    async beside() {
      const { databaseUrl } = started(0);
      if (!databaseUrl) throw new Error("beside() shares a Postgres database: run with DATABASE_URL");
      return serve({ env, databaseUrl });
    },
  };
}
