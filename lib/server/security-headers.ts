import { randomBytes } from "node:crypto";

export type PageKind = "api" | "share" | "page" | "asset";

/**
 * Which header set a path gets: the API (and the tracking apps' /ingest endpoints, which answer as it does), a public
 * share page (may be framed), an asset, or a dashboard/sign-in page.
 */
export function pageKind(pathname: string): PageKind {
  if (pathname === "/api" || pathname.startsWith("/api/") || pathname === "/ingest" || pathname.startsWith("/ingest/")) return "api";
  if (pathname.startsWith("/_next/")) return "asset";
  if (pathname === "/share" || pathname.startsWith("/share/")) return "share";
  return "page";
}

/**
 * The origin a tile URL template loads from, as a CSP source: `https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png`
 * → `https://*.tile.openstreetmap.org` (Leaflet's `{s}` subdomains become a wildcard). Null when it is not an
 * absolute http(s) URL (then tiles come from this origin and 'self' covers them).
 */
export function tileSource(template: string): string | null {
  const m = /^(https?):\/\/([^/?#]+)/i.exec(template.trim());
  if (!m) return null;
  const host = m[2]!.replace(/\{s\}/g, "*");
  if (!/^(\*\.)?[A-Za-z0-9.-]+(:\d+)?$/.test(host) && !/^\[[0-9A-Fa-f:.]+\](:\d+)?$/.test(host)) return null;
  return `${m[1]!.toLowerCase()}://${host}`;
}

/**
 * The Content-Security-Policy of a page. Scripts: only this origin's and the inline ones Next.js renders with the
 * request's nonce ('strict-dynamic' lets those load their chunks). Styles allow 'unsafe-inline': React renders style
 * attributes and Leaflet writes them into its markers and tiles (a style cannot run code). Images: this origin, data:
 * and blob: URLs and the map tile server. Framing: none, except share pages, which customers embed.
 */
export function contentSecurityPolicy(opts: { nonce: string; tileUrl: string; frameable: boolean }): string {
  const tiles = tileSource(opts.tileUrl);
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${opts.nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${tiles ? ` ${tiles}` : ""}`,
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    ...(opts.frameable ? [] : ["frame-ancestors 'none'"]),
  ];
  return directives.join("; ");
}

export const newNonce = (): string => randomBytes(16).toString("base64");

/**
 * The response headers for a path. A page's CSP carries a nonce (`opts.nonce`, or a new one): made only for pages,
 * as API and device requests, the bulk of the traffic, have no use for one.
 */
export function securityHeaders(kind: PageKind, opts: { nonce?: string; tileUrl: string }): Record<string, string> {
  const headers: Record<string, string> = { "X-Content-Type-Options": "nosniff" };
  if (kind === "page" || kind === "share") {
    const frameable = kind === "share";
    headers["Content-Security-Policy"] = contentSecurityPolicy({ nonce: opts.nonce ?? newNonce(), tileUrl: opts.tileUrl, frameable });
    // Share pages: the token in their URL is never sent on. Elsewhere: the origin only, to other sites.
    headers["Referrer-Policy"] = frameable ? "no-referrer" : "strict-origin-when-cross-origin";
    if (!frameable) headers["X-Frame-Options"] = "DENY";
  }
  return headers;
}
