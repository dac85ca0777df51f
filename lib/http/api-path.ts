/**
 * Next.js answers a path with an empty segment (`//`) with a 308 to the path without it, before any route runs. Under
 * /api/v1 there are no redirects (api-contract v1.1): the server hands Next.js such a path with each empty segment
 * made a blank one (`%20`), so the route sees a blank id and answers the 400 "Missing required parameter". Backslashes,
 * which Next.js would also redirect, are sent on percent-encoded. Other URLs are returned as they are.
 */
export function apiRequestUrl(url: string): string {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  if (!/^\/api\/v1(?:[/\\]|$)/.test(path) || !/\/\/|\\/.test(path)) return url;
  const fixed = path.replace(/\\/g, "%5C").replace(/\/(?=\/)/g, "/%20");
  return q === -1 ? fixed : fixed + url.slice(q);
}
