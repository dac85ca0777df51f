import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, request, useServer } from "../harness/client";
import { awayFromWindowEdge } from "../support/window-edge";
import { signIn, uniqueEmail } from "../harness/dashboard";
import { startServer, type TestServer } from "../harness/server";

// The client address comes from the socket (TRUST_PROXY=0) or from the entry of X-Forwarded-For that the trusted
// proxy appended (TRUST_PROXY=1), never from what a client writes itself. Observed through two per-address budgets: the
// sign-in attempts (SIGNIN_RATE_LIMIT_PER_IP) and the failed API-key authentications (AUTH_FAILURE_LIMIT_PER_IP).
const SIGNIN_PER_IP = 3;
const FAILURES_PER_IP = 30;
const throttled = (r: { error: string | null }) => r.error?.startsWith("Too many sign-in attempts") ?? false;
const unknownKey = () => `fl_${"x".repeat(40)}`;

describe("TRUST_PROXY=0 (no proxy in front)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TRUST_PROXY: "0", SIGNIN_RATE_LIMIT_PER_IP: String(SIGNIN_PER_IP) } });
  });
  afterAll(async () => server?.stop());

  it("a forged X-Forwarded-For does not change the per-address sign-in budget", async () => {
    await awayFromWindowEdge(10_000);
    const attempts = [];
    for (let i = 0; i <= SIGNIN_PER_IP; i++) {
      attempts.push(await signIn(server.baseUrl, uniqueEmail("nobody"), "wrong password", { headers: { "X-Forwarded-For": `203.0.113.${i + 1}` } }));
    }
    expect(attempts.slice(0, SIGNIN_PER_IP).map((a) => a.error)).toEqual(Array(SIGNIN_PER_IP).fill("CredentialsSignin"));
    expect(throttled(attempts[SIGNIN_PER_IP]!)).toBe(true);
  });

  it("a forged X-Forwarded-For does not change the failed-key budget either", async () => {
    await awayFromWindowEdge(10_000);
    const statuses: number[] = [];
    for (let i = 0; i <= FAILURES_PER_IP; i++) {
      const res = await fetch(`${server.baseUrl}/api/v1/trackables`, {
        headers: { Authorization: `Bearer ${unknownKey()}`, "X-Forwarded-For": `198.51.100.${i + 1}` },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, FAILURES_PER_IP)).toEqual(Array(FAILURES_PER_IP).fill(401));
    expect(statuses[FAILURES_PER_IP]).toBe(429);
  });
});

describe("TRUST_PROXY=1 (one proxy appends the address it saw)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TRUST_PROXY: "1", SIGNIN_RATE_LIMIT_PER_IP: String(SIGNIN_PER_IP) } });
    useServer(server);
  });
  afterAll(async () => {
    useServer(null);
    await server?.stop();
  });

  it("the rightmost X-Forwarded-For entry is the client: what the client prepends is ignored", async () => {
    await awayFromWindowEdge(10_000);
    const from = (client: string, forged: string) => ({ headers: { "X-Forwarded-For": `${forged}, ${client}` } });
    const attempts = [];
    for (let i = 0; i <= SIGNIN_PER_IP; i++) {
      attempts.push(await signIn(server.baseUrl, uniqueEmail("nobody"), "wrong password", from("203.0.113.50", `10.9.9.${i}`)));
    }
    expect(attempts.slice(0, SIGNIN_PER_IP).every((a) => a.error === "CredentialsSignin")).toBe(true);
    expect(throttled(attempts[SIGNIN_PER_IP]!)).toBe(true);
    // Another client behind the same proxy has a budget of its own, even when it names the refused one first.
    const other = await signIn(server.baseUrl, uniqueEmail("nobody"), "wrong password", from("203.0.113.51", "203.0.113.50"));
    expect(other.error).toBe("CredentialsSignin");
  });

  it("1,000 requests with unknown keys in 5 s are mostly 429; valid keys of other clients keep working", async () => {
    const owner = await newAccount();
    const attacker = { "X-Forwarded-For": "203.0.113.66" };
    // 1,000 requests take up to 20 s on a loaded machine: started with 30 s left, they fit in one window.
    await awayFromWindowEdge(30_000);
    const statuses: number[] = [];
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < 1000) {
          next++;
          const res = await fetch(`${server.baseUrl}/api/v1/trackables`, { headers: { ...attacker, Authorization: `Bearer ${unknownKey()}` } });
          await res.arrayBuffer();
          statuses.push(res.status);
        }
      }),
    );
    const elapsed = Date.now() - started;
    const count = (s: number) => statuses.filter((x) => x === s).length;
    console.log(`1,000 unknown-key requests in ${elapsed} ms: ${count(401)} × 401, ${count(429)} × 429`);
    expect(count(401)).toBeLessThanOrEqual(FAILURES_PER_IP);
    expect(count(429)).toBe(1000 - count(401));

    // The refused address is refused before its key is looked at (a right guess would not show)…
    const blocked = await request("GET", "/api/v1/trackables", { key: owner.key, headers: attacker });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe("rate_limit_exceeded");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // …while the key works from its own client.
    const ok = await request("GET", "/api/v1/trackables", { key: owner.key, headers: { "X-Forwarded-For": "198.51.100.20" } });
    expect(ok.status).toBe(200);
  });
});
