// Synchronous work that can take milliseconds (parsing and validating a large body: a 2,000-position polygon costs
// ~5 ms) runs one piece at a time, each after the event loop has had a turn. A burst of such requests then holds the
// loop for one piece at a time, and a health probe or a small request between them waits for one piece, not all.

let tail: Promise<unknown> = Promise.resolve();

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `work` after every piece queued before it, and after one pass of the event loop (its I/O answered first). */
export function oneAtATime<T>(work: () => T): Promise<T> {
  const run = tail.then(nextTurn).then(work);
  tail = run.catch(() => undefined);
  return run;
}
