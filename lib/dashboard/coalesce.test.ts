import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coalescer, type CoalescerClock } from "./coalesce";

/** A clock the test moves by hand. */
function manualClock() {
  let now = 0;
  const timers: Array<{ at: number; fn: () => void; live: boolean }> = [];
  const clock: CoalescerClock = {
    now: () => now,
    later(fn, ms) {
      const t = { at: now + ms, fn, live: true };
      timers.push(t);
      return () => void (t.live = false);
    },
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const due = timers.filter((t) => t.live && t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      now = due.at;
      due.live = false;
      due.fn();
    }
    now = until;
  };
  return { clock, advance, now: () => now };
}

describe("coalescer", () => {
  it("starts at once when idle, and a burst during a refresh makes exactly one more", () => {
    let runs = 0;
    const c = coalescer(() => void (runs += 1));
    c.request();
    expect(runs).toBe(1);
    for (let i = 0; i < 50; i++) c.request();
    expect(runs).toBe(1);
    c.settled();
    expect(runs).toBe(2);
    c.settled();
    expect(runs).toBe(2);
    expect(c.busy).toBe(false);
  });

  it("keeps the gap between starts, and stop() drops the waiting one", () => {
    const { clock, advance } = manualClock();
    let runs = 0;
    const c = coalescer(() => void (runs += 1), { minGapMs: 1000, clock });
    c.request();
    advance(100);
    c.request();
    c.settled();
    expect(runs).toBe(1);
    advance(899);
    expect(runs).toBe(1);
    advance(1);
    expect(runs).toBe(2);
    c.settled();
    c.request();
    c.stop();
    advance(5000);
    expect(runs).toBe(2);
  });

  it("never has two in flight, keeps the gap, never loses a request, and runs no more than once per settle beyond the first", () => {
    const op = fc.oneof(fc.constant({ k: "request" as const }), fc.constant({ k: "settled" as const }), fc.record({ k: fc.constant("wait" as const), ms: fc.integer({ min: 0, max: 1500 }) }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.integer({ min: 0, max: 1000 }), (ops, gap) => {
        const { clock, advance, now } = manualClock();
        let inFlight = 0;
        let runs = 0;
        let settles = 0;
        const starts: number[] = [];
        // Whether the latest request is not yet covered by a run that started after it.
        let uncovered = false;
        const c = coalescer(
          () => {
            inFlight += 1;
            runs += 1;
            starts.push(now());
            uncovered = false;
            expect(inFlight).toBe(1);
          },
          { minGapMs: gap, clock },
        );
        const settle = () => {
          if (inFlight === 1) {
            inFlight -= 1;
            settles += 1;
          }
          c.settled();
        };
        for (const o of ops) {
          if (o.k === "request") {
            uncovered = true;
            c.request();
          } else if (o.k === "settled") settle();
          else advance(o.ms);
        }
        // Finish whatever is in flight or waiting: every request is then covered by a run that started after it.
        for (let i = 0; c.busy && i < 10; i++) {
          advance(gap);
          settle();
        }
        expect(c.busy).toBe(false);
        expect(uncovered).toBe(false);
        expect(runs).toBeLessThanOrEqual(settles + 1);
        expect(runs).toBeLessThanOrEqual(ops.filter((o) => o.k === "request").length);
        for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(gap);
      }),
    );
  });
});
