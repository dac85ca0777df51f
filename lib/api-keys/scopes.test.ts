import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allows, FULL_ACCESS, requiredScope, SCOPES, ScopeList, scopeEntryFor, splitScopes } from "./scopes";

const V1 = path.join(import.meta.dirname, "../../app/api/v1");
const UUID = "0190a8f2-7b1c-7000-8000-000000000001";

/** Every route file under app/api/v1, as the path it serves (dynamic segments filled in) and the methods it handles. */
function routeFiles(dir = V1, prefix = ""): { path: string; methods: string[] }[] {
  const out: { path: string; methods: string[] }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    // The catch-all only answers 404 for unknown paths; openapi.json needs no key.
    if (entry.name.startsWith("[[...") || (prefix === "" && entry.name === "openapi.json")) continue;
    const segment = entry.name.startsWith("[") ? UUID : entry.name;
    out.push(...routeFiles(path.join(dir, entry.name), `${prefix}/${segment}`));
  }
  const file = path.join(dir, "route.ts");
  try {
    const source = readFileSync(file, "utf8");
    const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => new RegExp(`\\b${m}\\s*:`).test(source));
    if (prefix) out.push({ path: `/api/v1${prefix}`, methods });
  } catch {
    // a directory without its own route file
  }
  return out;
}

describe("the scope every /api/v1 route needs", () => {
  const routes = routeFiles();

  it("finds the route files", () => {
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.map((r) => r.path)).toContain(`/api/v1/trackables/${UUID}/locations`);
  });

  it.each(routeFiles())("$path is covered by an entry of the scope table", (route) => {
    expect(scopeEntryFor(route.path), `add ${route.path} to SCOPE_TABLE in lib/api-keys/scopes.ts`).not.toBeNull();
    for (const method of route.methods) {
      const scope = requiredScope(method, route.path);
      expect([FULL_ACCESS, ...SCOPES]).toContain(scope);
    }
  });

  it("derives read for GET/HEAD and write for the other methods", () => {
    expect(requiredScope("GET", "/api/v1/trackables")).toBe("trackables:read");
    expect(requiredScope("HEAD", "/api/v1/trackables")).toBe("trackables:read");
    expect(requiredScope("POST", "/api/v1/trackables")).toBe("trackables:write");
    expect(requiredScope("DELETE", `/api/v1/trackables/${UUID}/device-tokens/${UUID}`)).toBe("trackables:write");
    expect(requiredScope("POST", `/api/v1/trackables/${UUID}/locations`)).toBe("locations:write");
    expect(requiredScope("GET", `/api/v1/trackables/${UUID}/locations/export`)).toBe("locations:read");
    expect(requiredScope("GET", `/api/v1/trackables/${UUID}/geofences`)).toBe("geofences:read");
    expect(requiredScope("POST", `/api/v1/webhook-deliveries/${UUID}/redeliver`)).toBe("webhooks:write");
    expect(requiredScope("GET", "/api/v1/event-types")).toBe("events:read");
    expect(requiredScope("PATCH", `/api/v1/notification-channels/${UUID}`)).toBe("notifications:write");
    expect(requiredScope("DELETE", `/api/v1/share-links/${UUID}`)).toBe("share-links:write");
  });

  it("leaves what no scope names to full-access keys", () => {
    expect(requiredScope("GET", "/api/v1/audit-log")).toBe(FULL_ACCESS);
    expect(requiredScope("PATCH", "/api/v1/account")).toBe(FULL_ACCESS);
    expect(requiredScope("GET", "/api/v1/something-new")).toBe(FULL_ACCESS);
    // events has no write scope
    expect(requiredScope("POST", "/api/v1/events")).toBe(FULL_ACCESS);
    expect(requiredScope("POST", "/api/v1/stream-tokens")).toBe("events:read");
  });

  it("does not confuse a prefix of a segment with the segment", () => {
    expect(requiredScope("GET", "/api/v1/webhooks-archive")).toBe(FULL_ACCESS);
    expect(requiredScope("GET", "/api/v1/trackablesx")).toBe(FULL_ACCESS);
  });
});

describe("allows", () => {
  const scope = fc.constantFrom(...SCOPES);

  it('"*" allows every scope, including what only full access may do', () => {
    fc.assert(fc.property(fc.constantFrom(FULL_ACCESS, ...SCOPES), (needed) => allows([FULL_ACCESS], needed)));
  });

  it("a subset allows exactly its members, never full-access requests", () => {
    fc.assert(
      fc.property(fc.uniqueArray(scope, { minLength: 1 }), scope, (granted, needed) => {
        expect(allows(granted, needed)).toBe(granted.includes(needed));
        expect(allows(granted, FULL_ACCESS)).toBe(false);
      }),
    );
  });
});

describe("ScopeList", () => {
  it("accepts any non-empty subset, deduplicated in the canonical order", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...SCOPES), { minLength: 1 }), (list) => {
        const parsed = ScopeList.parse(list);
        expect(new Set(parsed)).toEqual(new Set(list));
        expect(parsed).toEqual(SCOPES.filter((s) => list.includes(s)));
      }),
    );
  });

  it('refuses an empty list, unknown scopes and "*" beside others', () => {
    expect(ScopeList.safeParse([]).success).toBe(false);
    expect(ScopeList.safeParse(["trackables:delete"]).success).toBe(false);
    expect(ScopeList.safeParse(["*", "trackables:read"]).success).toBe(false);
    expect(ScopeList.parse(["*"])).toEqual(["*"]);
  });

  it("splits the CLI's comma-separated list", () => {
    expect(splitScopes(" locations:write, trackables:read ,")).toEqual(["locations:write", "trackables:read"]);
  });
});
