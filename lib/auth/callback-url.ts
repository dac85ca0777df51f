/** Where a sign-in goes when it names no (acceptable) destination. */
export const DEFAULT_AFTER_SIGN_IN = "/trackables";

/**
 * The same-origin path a sign-in may continue to, or null. The value is parsed with `URL` against APP_URL exactly as
 * a browser would resolve it (so "/\evil.example", "/%09/evil.example" and "/\/evil.example" all resolve to another
 * host and are refused), and the path that comes back never starts with "//" or "/\" (which a browser would read as
 * another host again).
 */
export function sameOriginPath(raw: string | null | undefined, appUrl: string): string | null {
  if (!raw) return null;
  const base = new URL(appUrl);
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return /^\/[/\\]/.test(path) ? null : path;
}

/** The request header in which proxy.ts hands a page its own path and query (for the way back after a sign-in). */
export const REQUEST_PATH_HEADER = "x-fenceline-path";

/** /sign-in, with the page to come back to when there is one worth naming (a path of this origin). */
export function signInUrl(from: string | null | undefined): string {
  if (!from || !from.startsWith("/") || /^\/[/\\]/.test(from) || from === DEFAULT_AFTER_SIGN_IN) return "/sign-in";
  return `/sign-in?callbackUrl=${encodeURIComponent(from)}`;
}
