import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminRequest } from "@/lib/http/admin-socket";
import { awayFromWindowEdge } from "../support/window-edge";
import { startServer, type TestServer } from "../harness/server";

// The operator endpoint (mints keys for any account, changes plans) is served on a Unix socket in the data directory,
// mode 0600, never on the TCP port; the CLI reaches the running server through it, and wrong tokens are throttled.

let server: TestServer;
beforeAll(async () => {
  // The embedded database, which the server holds: the CLI has to go through the server.
  server = await startServer({ env: { DATABASE_URL: "" } });
});
afterAll(async () => server?.stop());

/** Runs an operator script the way `npm run --silent apikey:…` does, on the server's data directory. */
function cli(script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const tsx = path.join(process.cwd(), "node_modules", ".bin", "tsx");
  const child = spawn(tsx, [`scripts/${script}.ts`, ...args], {
    env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

const trackables = (key: string) => fetch(`${server.baseUrl}/api/v1/trackables`, { headers: { Authorization: `Bearer ${key}` } });

describe("the operator endpoint", () => {
  it("listens on a socket in the data directory that only the server's user may open", () => {
    const stat = fs.statSync(server.adminSocket);
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
  });

  it("apikey:create and apikey:revoke work while the server holds the embedded database", async () => {
    const created = await cli("apikey-create", ["--account", `cli-${Date.now().toString(36)}`, "--plan", "free"]);
    expect(created.code, created.stderr).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^\S+$/);
    expect((await trackables(key)).status).toBe(200);

    const other = await adminRequest(server.adminSocket, server.adminToken, "POST", "/api-keys", { account: `cli-${Date.now().toString(36)}-2` });
    expect(other.status, other.text).toBe(201);
    const { key: otherKey, keyId } = other.body as { key: string; keyId: string };
    const revoked = await cli("apikey-revoke", ["--id", keyId]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await trackables(otherKey)).status).toBe(401);
  }, 120_000);

  it("is not served on the TCP port, not even with the right token", async () => {
    const headers = { Authorization: `Bearer ${server.adminToken}`, "Content-Type": "application/json" };
    const create = await fetch(`${server.baseUrl}/api/internal/api-keys`, { method: "POST", headers, body: JSON.stringify({ account: "from-the-network" }) });
    expect(create.status).toBe(404);
    const revoke = await fetch(`${server.baseUrl}/api/internal/api-keys/0193a4b2-0000-7000-8000-000000000000`, { method: "DELETE", headers });
    expect(revoke.status).toBe(404);
  });

  it("answers unknown paths and methods on the socket as the API does", async () => {
    expect((await adminRequest(server.adminSocket, server.adminToken, "GET", "/trackables")).status).toBe(404);
    const wrong = await adminRequest(server.adminSocket, server.adminToken, "GET", "/api-keys");
    expect(wrong.status).toBe(405);
    expect((wrong.body as { error: { code: string } }).error.code).toBe("method_not_allowed");
  });

  // Last: it spends the socket's budget of wrong tokens for a minute.
  it("refuses a client after 10 wrong tokens in a minute (429), the right token included", async () => {
    await awayFromWindowEdge(15_000, 60_000);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await adminRequest(server.adminSocket, `wrong-${i}`, "POST", "/api-keys", { account: "guess" })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const right = await adminRequest(server.adminSocket, server.adminToken, "POST", "/api-keys", { account: "after-the-guesses" });
    expect(right.status).toBe(429);
    expect((right.body as { error: { message: string } }).error.message).toMatch(/^Too many wrong admin tokens: at most 10 a minute\. Retry after \d+ s\.$/);
  });
});
