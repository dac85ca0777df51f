import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, request, useServer } from "../harness/client";
import { startServer, type TestServer } from "../harness/server";
import { awayFromWindowEdge } from "../support/window-edge";

// The public share endpoint's limits with small, configured budgets, on a server of its own that trusts one proxy in
// front of it (TRUST_PROXY=1: the client is the X-Forwarded-For entry that proxy appended, the last one).

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: "1", SHARE_RATE_LIMIT_PER_TOKEN: "4", SHARE_RATE_LIMIT_PER_IP: "6" } });
  useServer(server);
});
afterAll(async () => {
  useServer(null);
  await server?.stop();
});

async function newToken(): Promise<string> {
  const a = await newAccount();
  const t = await a.api("POST", "/trackables", { name: "Bike" });
  const link = await a.api("POST", "/share-links", { trackableId: t.body.id, expiresIn: 600 });
  expect(link.status).toBe(201);
  return new URL(link.body.url).pathname.split("/").pop()!;
}

const view = (token: string, forwardedFor: string) =>
  request("GET", `/api/public/share/${token}`, { headers: { "X-Forwarded-For": forwardedFor } });

describe("share links: public rate limits (configured)", () => {
  it("SHARE_RATE_LIMIT_PER_TOKEN: the fifth request to one link in a minute is 429, from any address", async () => {
    const token = await newToken();
    // Budgets are counted exactly only when the requests fall in one of the limiter's minute windows.
    await awayFromWindowEdge(15_000);
    for (let i = 0; i < 4; i++) expect((await view(token, `203.0.113.${i}`)).status).toBe(200);
    const refused = await view(token, "203.0.113.99");
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limit_exceeded");
    expect(refused.body.error.message).toContain("4 requests per minute per share link");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("SHARE_RATE_LIMIT_PER_IP: the seventh request from one address is 429, whatever the link (unknown tokens count)", async () => {
    const [t1, t2] = [await newToken(), await newToken()];
    // The proxy appended the client's address; whatever the client itself put before it changes nothing.
    const client = (spoofed: number) => `10.0.0.${spoofed}, 192.0.2.7`;
    await awayFromWindowEdge(15_000);
    for (const [i, token] of [t1, t1, t2, t2, "unknown-token"].entries()) {
      expect((await view(token, client(i))).status).toBe(token === "unknown-token" ? 404 : 200);
    }
    expect((await view(t2, client(9))).status).toBe(200); // the sixth
    const refused = await view(t1, client(10));
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toContain("6 requests per minute per client address");
    expect(refused.headers.get("x-robots-tag")).toBe("noindex");
    // Another client is served: t1 has used 2 of its 4 (the refused request was not charged to the link).
    expect((await view(t1, "192.0.2.8")).status).toBe(200);
  });
});
