import { z } from "zod";

// What an API key may do. A key holds ["*"] (everything, the default) or a subset of SCOPES; every /api/v1 request
// needs one scope, derived from its path and method by the one table below, so a new route is covered without
// being edited: GET/HEAD read, every other method writes.

export const FULL_ACCESS = "*";

export const SCOPES = [
  "trackables:read",
  "trackables:write",
  "locations:read",
  "locations:write",
  "geofences:read",
  "geofences:write",
  "webhooks:read",
  "webhooks:write",
  "events:read",
  "share-links:read",
  "share-links:write",
  "notifications:read",
  "notifications:write",
] as const;
export type Scope = (typeof SCOPES)[number];
/** What a request needs: one scope, or "*" for what only a full-access key may do (the account, the audit log). */
export type RequiredScope = Scope | typeof FULL_ACCESS;
const SCOPE_ORDER: readonly string[] = [FULL_ACCESS, ...SCOPES];

export const ScopeList = z
  .array(z.enum([FULL_ACCESS, ...SCOPES]))
  .min(1)
  .refine((s) => !(s.includes(FULL_ACCESS) && s.length > 1), { message: `"*" stands alone: it already grants every scope` })
  .transform((s) => [...new Set(s)].sort((a, b) => SCOPE_ORDER.indexOf(a) - SCOPE_ORDER.indexOf(b)))
  .meta({ description: `["*"] (every scope) or a subset of: ${SCOPES.join(", ")}`, example: ["locations:write", "trackables:read"] });

type Family = "trackables" | "locations" | "geofences" | "webhooks" | "events" | "share-links" | "notifications";

/**
 * Path patterns (below /api/v1; `*` is one segment; a pattern also covers everything under it) → the resource family
 * whose `:read`/`:write` scope they need, or a fixed scope where the method rule is wrong. The most specific pattern
 * wins (most segments). A path that matches nothing needs "*": an unknown resource is never open to a scoped key.
 */
export const SCOPE_TABLE: { pattern: string; family?: Family; fixed?: RequiredScope }[] = [
  { pattern: "/trackables", family: "trackables" },
  // Device tokens are part of the trackable they post for.
  { pattern: "/trackables/*/locations", family: "locations" },
  { pattern: "/trackables/*/imports", family: "locations" },
  { pattern: "/trackables/*/geofences", family: "geofences" },
  { pattern: "/trips", family: "locations" },
  { pattern: "/stops", family: "locations" },
  { pattern: "/reports", family: "locations" },
  { pattern: "/geofences", family: "geofences" },
  { pattern: "/webhooks", family: "webhooks" },
  { pattern: "/webhook-deliveries", family: "webhooks" },
  { pattern: "/events", family: "events" },
  { pattern: "/event-types", family: "events" },
  { pattern: "/stream", family: "events" },
  // Minting a token to read the stream is reading events.
  { pattern: "/stream-tokens", fixed: "events:read" },
  { pattern: "/share-links", family: "share-links" },
  { pattern: "/notification-channels", family: "notifications" },
  { pattern: "/notification-rules", family: "notifications" },
  { pattern: "/notification-deliveries", family: "notifications" },
  // Workspace-wide settings and history: full-access keys only (no scope in the list names them).
  { pattern: "/account", fixed: FULL_ACCESS },
  { pattern: "/audit-log", fixed: FULL_ACCESS },
  { pattern: "/privacy-zones", fixed: FULL_ACCESS },
];

const COMPILED = SCOPE_TABLE.map((entry) => ({ ...entry, segments: entry.pattern.split("/").filter(Boolean) })).sort(
  (a, b) => b.segments.length - a.segments.length,
);

/** Splits an /api/v1 path (with or without the prefix) into its segments. */
function segmentsOf(pathname: string): string[] {
  const rest = pathname.replace(/^\/api\/v1(?=\/|$)/, "");
  return rest.split("/").filter(Boolean);
}

/** The table entry that covers a path, or null. */
export function scopeEntryFor(pathname: string) {
  const segments = segmentsOf(pathname);
  return (
    COMPILED.find((e) => e.segments.length <= segments.length && e.segments.every((s, i) => s === "*" || s === segments[i])) ?? null
  );
}

/** The scope a request needs. */
export function requiredScope(method: string, pathname: string): RequiredScope {
  const entry = scopeEntryFor(pathname);
  if (!entry) return FULL_ACCESS;
  if (entry.fixed) return entry.fixed;
  const read = method === "GET" || method === "HEAD";
  const scope = `${entry.family}:${read ? "read" : "write"}`;
  // A family without a write scope (events) leaves writes to full-access keys.
  return (SCOPES as readonly string[]).includes(scope) ? (scope as Scope) : FULL_ACCESS;
}

/** Whether a key with `granted` scopes may do what needs `needed`. */
export function allows(granted: readonly string[], needed: RequiredScope): boolean {
  return granted.includes(FULL_ACCESS) || (needed !== FULL_ACCESS && granted.includes(needed));
}

/** "a,b" (the CLI's --scopes) → a list for ScopeList; blank parts are dropped. */
export const splitScopes = (text: string): string[] =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
