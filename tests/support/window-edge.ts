/**
 * Waits past the next window boundary when fewer than `marginMs` are left before it. The limiters' fixed windows are
 * aligned to multiples of their length (a minute for the API's, ten for sign-in's) and weigh the previous window's
 * count by its remaining overlap, rounded down (a sliding-window approximation, as @upstash/ratelimit's): a burst that
 * straddles a boundary may pass one request more than the budget. A test that counts a budget exactly starts its burst
 * where the burst fits in one window. Plain Node, so the vitest suites and the Playwright specs share it.
 */
export async function awayFromWindowEdge(marginMs = 5_000, windowMs = 60_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 10));
}
