import fs from "node:fs";
import path from "node:path";

/** The part of Next.js's build output (.next/routes-manifest.json) that names every page and route with its regex. */
export interface RoutesManifest {
  staticRoutes?: Array<{ page: string; regex: string }>;
  dynamicRoutes?: Array<{ page: string; regex: string }>;
}

// A label per route pattern, never per path: ids in paths would make a series per trackable.
export const UNMATCHED_ROUTE = "unmatched";
const CACHE_MAX = 10_000;

/**
 * Maps a request's pathname to the pattern of the page or route Next.js serves it with (`/api/v1/trackables/[trackableId]`),
 * in Next.js's order: static routes first, then the dynamic ones as the manifest sorts them. Build assets share one
 * label; a path nothing serves is `unmatched`.
 */
export function routeMatcher(manifest: RoutesManifest, extra: readonly string[] = []): (pathname: string) => string {
  const statics = new Set([...(manifest.staticRoutes ?? []).map((r) => r.page), ...extra]);
  const dynamics = (manifest.dynamicRoutes ?? []).map((r) => ({ page: r.page, regex: new RegExp(r.regex) }));
  const cache = new Map<string, string>();
  const match = (pathname: string): string => {
    if (statics.has(pathname)) return pathname;
    const trimmed = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
    if (statics.has(trimmed)) return trimmed;
    if (pathname.startsWith("/_next/")) return pathname.startsWith("/_next/static/") ? "/_next/static" : "/_next";
    for (const d of dynamics) if (d.regex.test(pathname)) return d.page;
    return UNMATCHED_ROUTE;
  };
  return (pathname) => {
    let route = cache.get(pathname);
    if (route === undefined) {
      if (cache.size >= CACHE_MAX) cache.clear();
      cache.set(pathname, (route = match(pathname)));
    }
    return route;
  };
}

/** The built app's routes (none when the manifest is missing: every request is then `unmatched`). */
export function loadRoutesManifest(dir: string): RoutesManifest {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, ".next", "routes-manifest.json"), "utf8")) as RoutesManifest;
  } catch {
    return {};
  }
}
