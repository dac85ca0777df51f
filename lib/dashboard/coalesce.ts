/**
 * Runs refreshes one at a time: requests during a refresh make one more after it, however many they are; and two
 * refreshes start at least `minGapMs` apart, so a busy account costs an open page at most one re-render per gap.
 */
export interface Coalescer {
  /** Something changed: refresh now, or once more after the one in flight (and the gap). */
  request(): void;
  /** The refresh in flight has finished (a call with none in flight, or one still waiting for its gap, does nothing). */
  settled(): void;
  /** Drops a refresh waiting for its gap (the page goes away). */
  stop(): void;
  /** Whether a refresh is in flight or waiting for its gap. */
  readonly busy: boolean;
}

export interface CoalescerClock {
  now(): number;
  /** Calls `fn` after `ms`; returns what cancels it. */
  later(fn: () => void, ms: number): () => void;
}

const realClock: CoalescerClock = {
  now: () => Date.now(),
  later: (fn, ms) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};

export function coalescer(run: () => void, { minGapMs = 0, clock = realClock }: { minGapMs?: number; clock?: CoalescerClock } = {}): Coalescer {
  let inFlight = false;
  let again = false;
  let cancelWait: (() => void) | null = null;
  let lastStart = Number.NEGATIVE_INFINITY;
  const start = () => {
    cancelWait = null;
    inFlight = true;
    again = false;
    lastStart = clock.now();
    run();
  };
  const startSoon = () => {
    const wait = lastStart + minGapMs - clock.now();
    if (wait <= 0) return start();
    // Holds the place: requests meanwhile are covered by this start.
    inFlight = true;
    again = false;
    cancelWait = clock.later(start, wait);
  };
  return {
    request() {
      if (inFlight) again = true;
      else startSoon();
    },
    settled() {
      if (!inFlight || cancelWait) return;
      inFlight = false;
      if (again) startSoon();
    },
    stop() {
      cancelWait?.();
      cancelWait = null;
      inFlight = false;
      again = false;
    },
    get busy() {
      return inFlight;
    },
  };
}
