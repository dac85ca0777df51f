import v8 from "node:v8";

// After a burst of requests V8 may keep the burst's dead objects in its old generation for as long as the process
// stays quiet: it starts a major collection when the old generation reaches a limit it set from the heap's size at
// the last one, not after a while, and its memory reducer (which collects when a busy heap goes quiet) runs only
// sometimes. Measured after bench/webhook-latency.ts's minute of load (bench/README.md): in half the runs the app server
// held 173 MB of old generation of which ~60 MB was alive, RSS 340–380 MB against 220–250 MB in the others, and
// stayed so while idle. Two remedies, both in the server's flags (scripts/build.ts): --heap-growing-percent=50 keeps
// V8's limit at 1.5 × what was alive after its last collection (a major collection every ~15 s under that load,
// 5–10 ms of pause each), and this module, with --expose-gc, collects once the server has gone quiet after a burst,
// which also hands the emptied heap pages back to the system (RSS 228–234 → 184–185 MB 15 s after the load).

/** V8's gc() as --expose-gc defines it (the options form; the server runs with the flag, scripts/build.ts). */
type Gc = (options: { type: "major"; execution: "async" }) => Promise<void>;

export interface IdleGcOptions {
  /** How long without a request counts as quiet (also how often it looks). */
  quietMs?: number;
  /** Collect only when the heap in use grew by at least this much since the last collection seen (8 MB). */
  growthBytes?: number;
  /** The collector; globalThis.gc (defined by --expose-gc) by default. */
  gc?: Gc;
  /** The heap in use, in bytes. */
  heapUsed?: () => number;
}

export interface IdleGc {
  /** Call on every request: the server is not quiet. */
  touch(): void;
  /** Stops looking (a collection under way finishes). */
  stop(): void;
  /** One look, as the timer makes it every quietMs (resolves when its collection, if any, is done). */
  tick(): Promise<void>;
}

/**
 * Collects the heap once the server is quiet after a burst: when no request came in over the last `quietMs`, some did
 * since its last collection, and the heap in use grew by `growthBytes` or more since the last collection it made or
 * saw. So an idle server is collected once, not every `quietMs`. Without --expose-gc it does nothing.
 */
export function startIdleGc(opts: IdleGcOptions = {}): IdleGc {
  const quietMs = opts.quietMs ?? 5_000;
  const growth = opts.growthBytes ?? 8 * 1024 * 1024;
  const gc = opts.gc ?? (globalThis as { gc?: Gc }).gc;
  const heapUsed = opts.heapUsed ?? (() => v8.getHeapStatistics().used_heap_size);
  let requests = 0;
  let seen = 0;
  /** The request count at its last collection: a quiet server that was collected is not collected again. */
  let collectedAt = 0;
  let baseline = heapUsed();
  let collecting = false;

  const tick = async () => {
    const busy = requests !== seen;
    seen = requests;
    const used = heapUsed();
    // V8 collected by itself meanwhile: measure the growth from there.
    if (used < baseline) baseline = used;
    if (busy || collecting || !gc || requests === collectedAt || used - baseline < growth) return;
    collecting = true;
    collectedAt = requests;
    try {
      await gc({ type: "major", execution: "async" });
    } finally {
      collecting = false;
      baseline = heapUsed();
    }
  };
  const timer = setInterval(() => void tick().catch(() => {}), quietMs);
  timer.unref();
  return {
    touch: () => void requests++,
    stop: () => clearInterval(timer),
    tick,
  };
}
