import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { clientAddress } from "./client-address";

const req = (peer: string, xff?: string) => {
  const socket = new Socket();
  Object.defineProperty(socket, "remoteAddress", { value: peer });
  return { socket, headers: xff === undefined ? {} : { "x-forwarded-for": xff } };
};

describe("clientAddress", () => {
  it("TRUST_PROXY=0: the socket's peer, whatever X-Forwarded-For says", () => {
    expect(clientAddress(req("198.51.100.7", "203.0.113.1"), 0)).toBe("198.51.100.7");
    expect(clientAddress(req("198.51.100.7"), 0)).toBe("198.51.100.7");
  });

  it("TRUST_PROXY=N: the entry N places from the right (the peer is the nearest proxy)", () => {
    const r = req("10.0.0.2", "1.1.1.1, 203.0.113.9, 10.0.0.1");
    expect(clientAddress(r, 1)).toBe("10.0.0.1");
    expect(clientAddress(r, 2)).toBe("203.0.113.9");
    expect(clientAddress(r, 3)).toBe("1.1.1.1");
    // More proxies configured than the header names: the leftmost entry.
    expect(clientAddress(r, 5)).toBe("1.1.1.1");
  });

  it("gives IPv4-mapped IPv6 peers as IPv4 and IPv6 in its canonical form", () => {
    expect(clientAddress(req("::ffff:127.0.0.1"), 0)).toBe("127.0.0.1");
    expect(clientAddress(req("::1", "2001:DB8:0:0:0:0:0:1"), 1)).toBe("2001:db8::1");
  });
});
