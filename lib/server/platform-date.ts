/**
 * Puts back the platform's Date after Next.js replaced it. Next.js's server wraps Date (next/dist/server/
 * node-environment-extensions/date.js) so that a prerender under `cacheComponents` notices a read of the clock; this
 * app does not turn `cacheComponents` on, so the wrapper only costs: every `new Date(ms)` goes through
 * Reflect.construct with `arguments`, ~300 ns instead of ~35 ns, and a batch of points makes hundreds (the stored
 * rows, the round's points, the driver's timestamps). The wrapper's objects are the platform's own Dates, so nothing
 * made before differs from what is made after.
 */
export function restorePlatformDate(platformDate: DateConstructor): void {
  if (globalThis.Date === platformDate) return;
  globalThis.Date = platformDate;
  Object.defineProperty(platformDate.prototype, "constructor", { value: platformDate, writable: true, configurable: true, enumerable: false });
}
