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
