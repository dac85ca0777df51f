import type { IncomingMessage } from "node:http";
import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";

/**
 * The request header that carries the client address from the app server to route handlers, server actions and
 * next-auth. The app server overwrites it on every request (a value sent by the client never survives), so it is the
 * one source of the client address: see lib/http/client-ip.ts.
 */
export const CLIENT_IP_HEADER = "x-fenceline-client-ip";

/**
 * The client's address: the socket's peer, or with `trustProxy` = N reverse proxies in front of the app, the entry N
 * places from the right of X-Forwarded-For (the address the outermost trusted proxy saw), as Express's
 * `trust proxy = N` does. IPv4-mapped IPv6 addresses (::ffff:192.0.2.1) are given as IPv4.
 */
export function clientAddress(req: Pick<IncomingMessage, "headers" | "socket">, trustProxy: number): string {
  const raw = proxyaddr(req as IncomingMessage, (_addr, hop) => hop < trustProxy);
  return normalizeAddress(raw);
}

// Normalised addresses by what proxy-addr gave: a request's client is nearly always one seen before (keep-alive
// connections, a proxy's few addresses), and parsing with ipaddr.js cost more than the rest of a device post's
// routing. Bounded: emptied when full.
const NORMALIZED_MAX = 10_000;
const normalized = new Map<string, string>();

function normalizeAddress(raw: string | undefined): string {
  if (!raw) return "unknown";
  let address = normalized.get(raw);
  if (address === undefined) {
    if (normalized.size >= NORMALIZED_MAX) normalized.clear();
    normalized.set(raw, (address = parseAddress(raw)));
  }
  return address;
}

function parseAddress(raw: string): string {
  if (!ipaddr.isValid(raw)) return raw.slice(0, 64);
  const parsed = ipaddr.parse(raw);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address().toString();
  }
  return parsed.toString();
}
