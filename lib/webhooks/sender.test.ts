import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendWebhook } from "./sender";

// Outbound safety: refused targets are refused before any connection. Listeners on 127.0.0.1 and ::1 (same port)
// count connections, so every loopback target below would be seen if the sender connected to it. Private and
// link-local targets are never listened on (no packet is ever sent to those ranges): for them a connection attempt
// would end in a time-out or a connection error, not in the "Refused:" verdict the tests require. The resolver is
// injected (this machine has no DNS that could point a name at a private address).

const servers: net.Server[] = [];
let port = 0;
let connections = 0;
const listen = (host: string, at: number) =>
  new Promise<net.Server>((resolve, reject) => {
    const server = net.createServer((s) => {
      connections++;
      s.destroy();
    });
    server.once("error", reject);
    server.listen(at, host, () => resolve(server));
  });
beforeAll(async () => {
  servers.push(await listen("127.0.0.1", 0));
  port = (servers[0]!.address() as net.AddressInfo).port;
  servers.push(await listen("::1", port));
});
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r())))));

const send = (url: string, resolve?: (h: string) => Promise<Array<{ address: string; family: number }>>) =>
  sendWebhook({ url, body: "{}", headers: {}, timeoutMs: 1000, allowPrivate: false, resolve });

describe("sendWebhook outbound safety", () => {
  const refused: Array<[string, string]> = [
    ["loopback literal", `https://127.0.0.1:${0}/hook`],
    ["loopback name", `https://localhost:${0}/hook`],
    ["private", "https://10.1.2.3/hook"],
    ["private 192.168", "https://192.168.1.10/hook"],
    ["link-local (metadata)", "https://169.254.169.254/latest"],
    ["IPv6 loopback", `https://[::1]:${0}/hook`],
    ["IPv6 link-local", "https://[fe80::1]/hook"],
    ["IPv4-mapped IPv6", `https://[::ffff:127.0.0.1]:${0}/hook`],
    ["non-https", "http://example.com/hook"],
  ];
  for (const [label, url] of refused) {
    it(`refuses ${label} without connecting`, async () => {
      const before = connections;
      const r = await send(url.replace(":0/", `:${port}/`));
      expect(r.refused).toBe(true);
      expect(r.ok).toBe(false);
      expect(r.statusCode).toBeNull();
      expect(r.error).toMatch(/^Refused: /);
      expect(connections).toBe(before);
    });
  }

  it("refuses a public name that resolves to a private or loopback address (checked at send time)", async () => {
    for (const address of ["127.0.0.1", "10.0.0.5", "::ffff:192.168.0.1", "fd00::1"]) {
      const before = connections;
      const r = await send(`https://hooks.example.com:${port}/x`, async () => [{ address, family: net.isIP(address) }]);
      expect(r.refused, address).toBe(true);
      expect(r.error).toContain(address);
      expect(connections).toBe(before);
    }
  });

  // The send-time check once accepted IPv6 forms outside 2000::/3 that the save-time check refused, and a name
  // resolving to ::7f00:1 was connected to. Both now call addressProblem.
  it.each(["::7f00:1", "::a9fe:a9fe", "64:ff9b::7f00:1", "2002:7f00:1::", "::ffff:7f00:1", "::1", "64:ff9b:1::7f00:1"])(
    "refuses a name resolving to %s without connecting",
    async (address) => {
      const before = connections;
      const r = await send(`https://hooks.example.com:${port}/x`, async () => [{ address, family: 6 }]);
      expect(r.refused, r.error ?? "").toBe(true);
      expect(r.error).toMatch(/^Refused: hooks\.example\.com resolves to .* which is not a public address/);
      expect(connections).toBe(before);
    },
  );

  it.each(["::7f00:1", "::a9fe:a9fe", "64:ff9b::7f00:1", "2002:7f00:1::"])("refuses the IPv6 literal [%s] without connecting", async (address) => {
    const before = connections;
    const r = await send(`https://[${address}]:${port}/x`);
    expect(r.refused).toBe(true);
    expect(connections).toBe(before);
  });

  it("refuses a host name with an empty label (localhost..) without resolving it", async () => {
    let lookups = 0;
    const r = await send(`https://localhost..:${port}/x`, async () => {
      lookups++;
      return [{ address: "127.0.0.1", family: 4 }];
    });
    expect(r.refused).toBe(true);
    expect(r.error).toMatch(/empty label/);
    expect(lookups).toBe(0);
  });

  it("refuses when any of several resolved addresses is private", async () => {
    const r = await send("https://hooks.example.com/x", async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "10.0.0.1", family: 4 },
    ]);
    expect(r.refused).toBe(true);
  });

  it("connects to the checked address: the socket's lookup is pinned (no second DNS answer is used)", async () => {
    let lookups = 0;
    const before = connections;
    const r = await sendWebhook({
      url: `http://pinned.test:${port}/x`,
      body: "{}",
      headers: {},
      timeoutMs: 1000,
      allowPrivate: true,
      resolve: async () => {
        lookups++;
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    expect(lookups).toBe(1);
    expect(connections).toBe(before + 1);
    expect(r.ok).toBe(false);
  });

  it("bounds the DNS look-up by the time-out too (a resolver that never answers)", async () => {
    const before = connections;
    const started = performance.now();
    const r = await sendWebhook({
      url: `http://slow-dns.test:${port}/x`,
      body: "{}",
      headers: {},
      timeoutMs: 300,
      allowPrivate: true,
      resolve: () => new Promise(() => {}),
    });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/^Timed out after 300 ms \(DNS lookup of slow-dns\.test\)/);
    expect(connections).toBe(before);
  });

  it("counts the look-up against the same deadline as the connection and the response", async () => {
    const r = await sendWebhook({
      url: `http://late-dns.test:${port}/x`,
      body: "{}",
      headers: {},
      timeoutMs: 200,
      allowPrivate: true,
      resolve: () => new Promise((resolve) => setTimeout(() => resolve([{ address: "127.0.0.1", family: 4 }]), 400)),
    });
    expect(r.error).toMatch(/^Timed out after 200 ms/);
  });
});

describe("sendWebhook connections", () => {
  /**
   * A receiver on a raw socket: answers 200 to each request, keeps the connection open, and (with `resetSecond`)
   * resets a connection when a second request arrives on it, as a receiver that closed an idle connection does.
   */
  async function receiver(resetSecond: boolean) {
    let connections = 0;
    let answered = 0;
    const open = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      connections++;
      open.add(socket);
      socket.on("close", () => open.delete(socket));
      let requests = 0;
      let buffer = "";
      socket.on("data", (chunk) => {
        buffer += chunk.toString("latin1");
        // Each request is headers and a 2-byte body ("{}").
        for (let end = buffer.indexOf("\r\n\r\n"); end !== -1 && buffer.length >= end + 6; end = buffer.indexOf("\r\n\r\n")) {
          buffer = buffer.slice(end + 6);
          requests++;
          if (resetSecond && requests === 2) return socket.resetAndDestroy();
          answered++;
          socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok");
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`;
    return {
      url,
      stats: () => ({ connections, answered }),
      close: () =>
        new Promise<void>((r) => {
          server.close(() => r());
          for (const socket of open) socket.destroy();
        }),
    };
  }
  const post = (url: string) => sendWebhook({ url, body: "{}", headers: { "Content-Type": "application/json" }, timeoutMs: 2000, allowPrivate: true });

  it("keeps the connection to a receiver open between deliveries", async () => {
    const r = await receiver(false);
    try {
      for (let i = 0; i < 3; i++) expect((await post(r.url)).statusCode).toBe(200);
      expect(r.stats()).toEqual({ connections: 1, answered: 3 });
    } finally {
      await r.close();
    }
  });

  it("sends again on a new connection, once, when a kept-open connection turns out to be closed", async () => {
    const r = await receiver(true);
    try {
      expect((await post(r.url)).ok).toBe(true);
      const second = await post(r.url);
      expect(second.ok, second.error ?? "").toBe(true);
      expect(r.stats()).toEqual({ connections: 2, answered: 2 });
    } finally {
      await r.close();
    }
  });
});
