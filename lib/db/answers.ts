// When the database last answered one of the app's statements, and who waits for its next answer: what GET
// /api/health reads (lib/db/health.ts) instead of queueing a query of its own behind the app's. Kept on globalThis:
// the app server's bundle and each Next.js route bundle load their own copy of this module, and the statements of
// all of them run on the one client that whichever copy opened first made (lib/db/client.ts).

interface Answers {
  /** performance.now() of the last answer, -Infinity before the first. */
  last: number;
  waiters: Set<() => void>;
}

const KEY = Symbol.for("fenceline.db.answers");
const holder = globalThis as unknown as { [KEY]?: Answers };
const answers = (): Answers => (holder[KEY] ??= { last: -Infinity, waiters: new Set() });

/** Called by the driver's wrapper when a statement completes: the database answered. */
export function databaseAnswered(): void {
  const state = answers();
  state.last = performance.now();
  if (state.waiters.size === 0) return;
  const waiting = [...state.waiters];
  state.waiters.clear();
  for (const wake of waiting) wake();
}

/** Milliseconds since the database last answered a statement (Infinity if it never has). */
export const sinceLastAnswer = (): number => performance.now() - answers().last;

/** Resolves at the database's next answer to any statement; `cancel` stops waiting. */
export function nextAnswer(): { answered: Promise<void>; cancel(): void } {
  const state = answers();
  let wake!: () => void;
  const answered = new Promise<void>((resolve) => (wake = resolve));
  state.waiters.add(wake);
  return { answered, cancel: () => void state.waiters.delete(wake) };
}
