import { CLIENT_IP_HEADER } from "@/lib/server/client-address";

/**
 * The client's address for per-address limits (sign-in, sign-up, share pages, failed API keys). The app server
 * (lib/server/app-server.ts) works it out from the socket and TRUST_PROXY and overwrites this header on every request,
 * so a client cannot choose it. Without that server (e.g. `next dev`) every client counts as "unknown".
 */
export function clientIp(headers: Headers | Record<string, string | string[] | undefined>): string {
  const raw = headers instanceof Headers ? headers.get(CLIENT_IP_HEADER) : headers[CLIENT_IP_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value || "unknown";
}
