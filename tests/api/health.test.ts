import fs from "node:fs";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PING_TIMEOUT_MS, RECENT_ANSWER_MS } from "@/lib/db/health";
import { startServer, type TestServer } from "../harness/server";

// GET /api/health answers from the database's recent answers to the app's own statements (lib/db/health.ts), so it
// must still notice a database that stops answering: within RECENT_ANSWER_MS + PING_TIMEOUT_MS.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The embedded database's process: the app server's child running embedded-server.mjs. */
function embeddedDatabasePid(serverPid: number): number {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) !== serverPid) continue;
      if (fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("embedded-server")) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no embedded database process under ${serverPid}`);
}

const health = async (server: TestServer) => {
  const started = performance.now();
  const res = await fetch(`${server.baseUrl}/api/health`);
  return { status: res.status, body: (await res.json()) as unknown, ms: performance.now() - started };
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { REDIS_URL: "" } });
});
afterAll(async () => server?.stop());

describe("GET /api/health with a database that stops answering", () => {
  it("answers 503 within the check's bound, and 200 again once the database is back", async () => {
    expect((await health(server)).status).toBe(200);
    // Postgres refuses the app's connections; the embedded database's process is frozen (its socket stays open, so
    // queries hang: the timeout is what answers).
    let resume: () => Promise<void>;
    if (server.databaseUrl) {
      const name = new URL(server.databaseUrl).pathname.slice(1);
      const admin = postgres(server.databaseUrl.replace(`/${name}`, "/postgres"), { max: 1, onnotice: () => {} });
      await admin.unsafe(`alter database ${name} allow_connections false`);
      await admin.unsafe(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`);
      resume = async () => {
        await admin.unsafe(`alter database ${name} allow_connections true`);
        await admin.end();
      };
    } else {
      const pid = embeddedDatabasePid(server.process.pid!);
      process.kill(pid, "SIGSTOP");
      resume = async () => void process.kill(pid, "SIGCONT");
    }
    try {
      // The last answer the database gave is no longer recent.
      await sleep(RECENT_ANSWER_MS + 100);
      const down = await health(server);
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ status: "unavailable" });
      expect(down.ms).toBeLessThan(PING_TIMEOUT_MS + 5_000);
    } finally {
      await resume();
    }
    const deadline = Date.now() + 30_000;
    let back = await health(server);
    while (back.status !== 200 && Date.now() < deadline) {
      await sleep(200);
      back = await health(server);
    }
    expect(back.status).toBe(200);
  }, 60_000);
});
