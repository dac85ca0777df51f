import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, request, useServer } from "../harness/client";
import { signIn, signUpUser, uniqueEmail } from "../harness/dashboard";
import { startServer, type TestServer } from "../harness/server";

// Behind one trusted proxy (TRUST_PROXY=1), so each test can speak from as many client addresses as it needs.
let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    env: {
      TRUST_PROXY: "1",
      SIGNIN_RATE_LIMIT_PER_IP: "1000",
      SIGNUP_RATE_LIMIT_PER_IP: "1000",
      PASSWORD_HASH_CONCURRENCY: "1",
      PASSWORD_HASH_QUEUE: "20",
    },
  });
  useServer(server);
});
afterAll(async () => {
  useServer(null);
  await server?.stop();
});

const from = (address: string) => ({ headers: { "X-Forwarded-For": address } });

describe("the per-email sign-in lock", () => {
  it("strangers cannot lock the owner out, from many addresses or from one: past 50 attempts the owner is only delayed", async () => {
    const victim = await signUpUser(server.baseUrl, uniqueEmail("victim"));
    // 45 wrong passwords from 45 addresses (forged or real; the reproduction used 10), then 12 from one.
    for (let i = 0; i < 45; i++) {
      const r = await signIn(server.baseUrl, victim.email, `guess ${i}`, from(`203.0.113.${i + 1}`));
      expect(r.error).toBe("CredentialsSignin");
    }
    const one = [];
    for (let i = 0; i < 12; i++) one.push(await signIn(server.baseUrl, victim.email, `guess ${i}`, from("198.51.100.66")));
    // That one address locked itself out of this email after 10 attempts (the 12th: a rolling window that turns
    // during the test may count one attempt less)…
    expect(one.slice(0, 10).every((r) => r.error === "CredentialsSignin")).toBe(true);
    expect(one[11]!.error).toMatch(/^Too many sign-in attempts/);
    // …and the owner still signs in from their own, after the delay that the email's 55 attempts earned (2 s).
    const started = Date.now();
    const owner = await signIn(server.baseUrl, victim.email, victim.password, from("192.0.2.10"));
    expect(owner.error).toBeNull();
    expect(owner.ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
  }, 180_000);
});

describe("password hashing under a sign-in flood", () => {
  it("queues the hashes (cap 1, queue 20): the API keeps answering and an overflow is refused as busy, never a 5xx", async () => {
    const account = await newAccount();
    const flood = Array.from({ length: 40 }, (_, i) =>
      signIn(server.baseUrl, uniqueEmail("flood"), "a wrong password", from(`203.0.113.${100 + i}`)).then((r) => ({ ...r, at: Date.now() })),
    );
    // API requests issued while the flood is under way.
    const api: { status: number; ms: number; at: number }[] = [];
    for (let i = 0; i < 10; i++) {
      const t = Date.now();
      const res = await request("GET", "/api/v1/trackables", { key: account.key });
      api.push({ status: res.status, ms: Date.now() - t, at: Date.now() });
    }
    const signIns = await Promise.all(flood);
    const lastSignIn = Math.max(...signIns.map((r) => r.at));
    const busy = signIns.filter((r) => r.error?.startsWith("The server is busy")).length;
    const refused = signIns.filter((r) => r.error === "CredentialsSignin").length;
    const sorted = api.map((a) => a.ms).sort((a, b) => a - b);
    console.log(`flood of 40 sign-ins: ${refused} checked, ${busy} busy; API p50 ${sorted[5]} ms, max ${sorted[9]} ms`);
    expect(api.every((a) => a.status === 200)).toBe(true);
    // Served during the flood, not after it.
    expect(Math.max(...api.map((a) => a.at))).toBeLessThan(lastSignIn);
    expect(refused + busy).toBe(40);
    expect(busy).toBeGreaterThan(0);
    expect(refused).toBeGreaterThanOrEqual(20);
  });
});
