import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GroupCommit } from "./group-commit";

// The group committer's invariant, over random arrivals, group sizes and failures: every submitted item is settled
// exactly once, with its own result (or its own error); a group's shared run is used whole or not at all; no more
// groups run at once than allowed, and none takes more weight than allowed (unless one item alone weighs more).

interface Item {
  id: number;
  weight: number;
  /** The item makes any group it is in fail (a row the database refuses). */
  poisonsGroup: boolean;
  /** The item's own run fails too. */
  failsAlone: boolean;
  /** Milliseconds after the previous item it is submitted. */
  gap: number;
}

const item = fc.record({
  weight: fc.integer({ min: 1, max: 5 }),
  poisonsGroup: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  failsAlone: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  gap: fc.integer({ min: 0, max: 3 }),
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("GroupCommit", () => {
  it("settles every item exactly once with its own result, within the limits", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(item, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        async (specs, maxInFlight, maxWeight, groupDies) => {
          const items: Item[] = specs.map((s, id) => ({ ...s, id }));
          let running = 0;
          let mostRunning = 0;
          const groups: Item[][] = [];
          const stored = new Map<number, number>(); // item id → times stored
          const store = (it: Item) => stored.set(it.id, (stored.get(it.id) ?? 0) + 1);
          const gc = new GroupCommit<Item, string>({
            async group(batch) {
              running++;
              mostRunning = Math.max(mostRunning, running);
              groups.push([...batch]);
              await sleep(1);
              running--;
              // All or nothing, as one statement: the items are stored only when the whole group succeeds.
              if (groupDies || batch.some((b) => b.poisonsGroup || b.failsAlone)) throw new Error("group failed");
              batch.forEach(store);
              return batch.map((b) => `result ${b.id}`);
            },
            async single(one) {
              await sleep(0);
              if (one.failsAlone) throw new Error(`error ${one.id}`);
              store(one);
              return `result ${one.id}`;
            },
            maxInFlight,
            maxWeight,
            weight: (it) => it.weight,
          });
          const settled = new Map<number, number>();
          const outcomes: Promise<void>[] = [];
          for (const it of items) {
            if (it.gap > 0) await sleep(it.gap);
            outcomes.push(
              gc.submit(it).then(
                (r) => {
                  settled.set(it.id, (settled.get(it.id) ?? 0) + 1);
                  expect(r).toBe(`result ${it.id}`);
                  expect(it.failsAlone).toBe(false);
                },
                (err: Error) => {
                  settled.set(it.id, (settled.get(it.id) ?? 0) + 1);
                  expect(err.message).toBe(`error ${it.id}`);
                  expect(it.failsAlone).toBe(true);
                },
              ),
            );
          }
          await Promise.all(outcomes);
          expect(gc.waiting).toBe(0);
          for (const it of items) {
            expect(settled.get(it.id)).toBe(1);
            // Acknowledged items are stored exactly once; failed ones not at all.
            expect(stored.get(it.id) ?? 0).toBe(it.failsAlone ? 0 : 1);
          }
          expect(mostRunning).toBeLessThanOrEqual(maxInFlight);
          for (const g of groups) {
            expect(g.length).toBeGreaterThan(1);
            expect(g.reduce((sum, it) => sum + it.weight, 0)).toBeLessThanOrEqual(maxWeight);
          }
          // Items go into groups in the order they were submitted.
          const order = groups.flat().map((g) => g.id);
          for (const g of groups) expect(g.map((x) => x.id)).toEqual([...g.map((x) => x.id)].sort((a, b) => a - b));
          expect(new Set(order).size).toBe(order.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a lone item runs alone at once, with no wait for others", async () => {
    const calls: string[] = [];
    const gc = new GroupCommit<number, number>({
      async group(batch) {
        calls.push(`group ${batch.join(",")}`);
        return batch.map((n) => n * 2);
      },
      async single(n) {
        calls.push(`single ${n}`);
        await sleep(5);
        return n * 2;
      },
    });
    const first = gc.submit(1);
    // Submitted while the first runs: they gather into one group.
    const rest = [gc.submit(2), gc.submit(3), gc.submit(4)];
    expect(await first).toBe(2);
    expect(await Promise.all(rest)).toEqual([4, 6, 8]);
    expect(calls).toEqual(["single 1", "group 2,3,4"]);
  });

  it("a group answering the wrong number of results is not used: each item runs alone", async () => {
    const gc = new GroupCommit<number, number>({
      async group(batch) {
        return batch.slice(1).map((n) => -n);
      },
      async single(n) {
        await sleep(1);
        return n;
      },
    });
    const answers = await Promise.all([1, 2, 3, 4].map((n) => gc.submit(n)));
    expect(answers).toEqual([1, 2, 3, 4]);
  });
});
