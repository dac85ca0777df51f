import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

// A process of its own that asks GET /api/health back to back and times each answer, so what a burst costs the test's
// own process (stringifying large bodies, parsing replies, its collections) never counts as the server's latency.

/** What the prober saw between start and stop. */
export interface HealthProbes {
  /** Answers received. */
  count: number;
  /** Statuses other than 200 (each counted once). */
  failures: number[];
  /** The slowest answer, ms (from the request's start to the reply's end). */
  worstMs: number;
  /** The prober's own event loop's worst delay over the run, ms: what of worstMs may be the prober's. */
  ownDelayMs: number;
}

export interface HealthProber {
  /** Starts timing (answers before it are not counted). */
  start(): Promise<void>;
  /** Stops and returns what was timed since start. */
  stop(): Promise<HealthProbes>;
  close(): void;
}

type Message = { type: "start" } | { type: "stop" };

/** Forks the prober against `baseUrl`; it probes from the moment it is forked (warm) but counts only from start(). */
export async function startHealthProber(baseUrl: string): Promise<HealthProber> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, HEALTH_PROBER_URL: `${baseUrl}/api/health` }, execArgv: ["--import", "tsx"] });
  await once(child, "message");
  const ask = async <T>(message: Message): Promise<T> => {
    const reply = once(child, "message");
    child.send(message);
    return (await reply)[0] as T;
  };
  return {
    start: () => ask<void>({ type: "start" }),
    stop: () => ask<HealthProbes>({ type: "stop" }),
    close: () => void child.kill(),
  };
}

function probe(url: string): void {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  let counting = false;
  let result: HealthProbes = { count: 0, failures: [], worstMs: 0, ownDelayMs: 0 };
  const get = () =>
    new Promise<number>((resolve, reject) => {
      http
        .get(url, { agent }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        })
        .on("error", reject);
    });
  const loop = async () => {
    for (;;) {
      const started = performance.now();
      const status = await get().catch(() => 0);
      const ms = performance.now() - started;
      if (!counting) continue;
      result.count++;
      result.worstMs = Math.max(result.worstMs, ms);
      if (status !== 200 && !result.failures.includes(status)) result.failures.push(status);
    }
  };
  process.on("message", (m: Message) => {
    if (m.type === "start") {
      result = { count: 0, failures: [], worstMs: 0, ownDelayMs: 0 };
      delay.reset();
      delay.enable();
      counting = true;
      process.send!({});
    } else {
      counting = false;
      delay.disable();
      process.send!({ ...result, ownDelayMs: delay.max / 1e6 });
    }
  });
  process.on("disconnect", () => process.exit(0));
  void loop();
  process.send!({});
}

if (process.env.HEALTH_PROBER_URL && process.send) probe(process.env.HEALTH_PROBER_URL);
