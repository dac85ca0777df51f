import { env } from "@/lib/config/env";

/**
 * The client's address for per-IP limits. Next.js fills X-Forwarded-For from the socket only when the request has
 * none, so the entry to trust is counted from the right: with TRUST_PROXY = n proxies appending to the header, the
 * n-th entry from the right is the address the outermost trusted proxy saw. With no proxy (0) a client can send its
 * own header, so per-IP limits are then a speed bump, not a wall: per-email and per-token limits still hold.
 */
export function clientIp(headers: Headers | Record<string, string | string[] | undefined>): string {
  const raw = headers instanceof Headers ? headers.get("x-forwarded-for") : headers["x-forwarded-for"];
  const value = Array.isArray(raw) ? raw.join(",") : (raw ?? "");
  const entries = value.split(",").map((s) => s.trim()).filter(Boolean);
  if (entries.length === 0) return "unknown";
  const hops = Math.max(1, env().TRUST_PROXY);
  return entries[Math.max(0, entries.length - hops)]!;
}
