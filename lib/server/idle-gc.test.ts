import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startIdleGc } from "./idle-gc";

const MB = 1024 * 1024;

/** A heap whose size the test sets, and a collector that records its calls and brings the heap down to `live`. */
function fakeHeap() {
  const heap = { used: 100 * MB, live: 60 * MB, collections: 0 };
  return {
    heap,
    options: {
      quietMs: 60_000, // the test calls tick() itself
      growthBytes: 8 * MB,
      heapUsed: () => heap.used,
      gc: async () => {
        heap.collections++;
        heap.used = heap.live;
      },
    },
  };
}

describe("idle GC", () => {
  it("collects once the server goes quiet after a burst that grew the heap, once per burst", async () => {
    const { heap, options } = fakeHeap();
    const idle = startIdleGc(options);
    try {
      idle.touch();
      heap.used += 40 * MB;
      await idle.tick(); // requests came in since the last look: busy
      expect(heap.collections).toBe(0);
      await idle.tick();
      expect(heap.collections).toBe(1);
      expect(heap.used).toBe(60 * MB);
      // Still quiet: an idle server is not collected again, however its heap moves.
      heap.used += 40 * MB;
      await idle.tick();
      expect(heap.collections).toBe(1);
      heap.used = 60 * MB;
      // A burst that grew the heap by less than the threshold (8 MB here).
      idle.touch();
      heap.used += 4 * MB;
      await idle.tick();
      await idle.tick();
      expect(heap.collections).toBe(1);
      idle.touch();
      heap.used += 10 * MB;
      await idle.tick();
      await idle.tick();
      expect(heap.collections).toBe(2);
    } finally {
      idle.stop();
    }
  });

  it("never collects in a look that saw requests, and measures growth from a collection V8 made by itself", async () => {
    const { heap, options } = fakeHeap();
    const idle = startIdleGc(options);
    try {
      idle.touch();
      heap.used += 50 * MB;
      await idle.tick();
      expect(heap.collections).toBe(0);
      // V8 collected meanwhile (the heap fell below where it started): growth counts from there.
      heap.used = 70 * MB;
      await idle.tick();
      expect(heap.collections).toBe(0);
      heap.used = 75 * MB;
      await idle.tick();
      expect(heap.collections).toBe(0);
      heap.used = 79 * MB;
      await idle.tick();
      expect(heap.collections).toBe(1);
    } finally {
      idle.stop();
    }
  });

  it("with V8's own collector (--expose-gc), gives back the old generation a burst left behind", () => {
    // A child process: the test runner's own has no gc(). It promotes ~150 MB of objects, drops them, and lets the
    // idle collector look once.
    const script = `
      import v8 from "node:v8";
      import { startIdleGc } from ${JSON.stringify(path.join(__dirname, "idle-gc.ts"))};
      const idle = startIdleGc({ quietMs: 60_000 });
      idle.touch();
      await idle.tick();
      let keep = [];
      for (let i = 0; i < 1_500_000; i++) keep.push({ i, s: "x" + i });
      const before = v8.getHeapStatistics().used_heap_size;
      keep = null;
      await idle.tick();
      const after = v8.getHeapStatistics().used_heap_size;
      idle.stop();
      console.log(JSON.stringify({ before, after }));`;
    const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
    const { before, after } = JSON.parse(out.trim().split("\n").at(-1)!) as { before: number; after: number };
    expect(before).toBeGreaterThan(100 * MB);
    expect(after).toBeLessThan(before - 80 * MB);
  });
});
