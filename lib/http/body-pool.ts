// Large bodies of OFF_THREAD_BODIES are parsed and validated in worker threads (piscina), off the event loop: ten
// 2,000-position polygons posted at once held the loop for each one's JSON.parse, zod and geometry checks, and every
// other request and health probe waited behind them (bench/README.md). The dashboard's large action inputs of those
// schemas are validated in the same pool (validateOffThread). Small ones stay inline: a round trip costs more.
import os from "node:os";
import path from "node:path";
import Piscina from "piscina";
import type { z } from "zod";
import type { BodyResult, DecodeResult, DecodeTask, InputResult } from "./body-worker";
import { metrics } from "@/lib/metrics/registry";
import { ApiError } from "./errors";
import { OFF_THREAD_BODIES, type OffThreadBody } from "./off-thread-bodies";

const nameOf = new Map<unknown, OffThreadBody>(Object.entries(OFF_THREAD_BODIES).map(([name, schema]) => [schema, name as OffThreadBody]));

/** The name a worker knows the schema by, or undefined for a schema that is always decoded inline. */
export const offThreadName = (schema: unknown): OffThreadBody | undefined => nameOf.get(schema);

/**
 * The worker's module: from the server's bundle when the app server runs from it (scripts/serve.ts sets
 * FENCELINE_SERVER_BUNDLE), else the TypeScript through tsx (the tests, `next dev`). A path built at run time, not an
 * import, so the Next.js bundler leaves it alone.
 */
function workerFile(): string {
  const bundle = process.env.FENCELINE_SERVER_BUNDLE;
  return bundle ? path.join(bundle, "body-worker.mjs") : path.join(process.cwd(), "lib", "http", "body-worker-tsx.mjs");
}

// One pool per process, whichever route bundle asks first (Next.js may load this module once per route).
const POOL = Symbol.for("fenceline.bodyPool");
type WithPool = typeof globalThis & { [POOL]?: Piscina<DecodeTask, DecodeResult> };

/**
 * The pool, started on first use: up to one thread per core but one, which the event loop keeps (at least one thread,
 * at most four). A thread idle for a minute ends (its memory back) and an idle one never keeps the process alive.
 */
export function bodyPool(): Piscina<DecodeTask, DecodeResult> {
  const g = globalThis as WithPool;
  g[POOL] ??= new Piscina<DecodeTask, DecodeResult>({
    filename: workerFile(),
    minThreads: 0,
    maxThreads: Math.max(1, Math.min(4, os.availableParallelism() - 1)),
    idleTimeout: 60_000,
  });
  return g[POOL];
}

/** Parses and validates `text` against the named schema in a worker thread: the data, or the ApiError it is. */
export async function decodeOffThread(name: OffThreadBody, text: string): Promise<unknown> {
  // The worker answers each kind of task with its own kind of result.
  const result = (await bodyPool().run({ kind: "body", name, text })) as BodyResult;
  metrics().largeBodyDecodeDuration.observe({ where: "thread" }, result.seconds);
  if (!result.ok) throw new ApiError(result.code, result.message);
  return result.data;
}

/** What safeParse says of an input, with the issues as the plain objects that crossed from the thread. */
export type InputCheck<T> = { success: true; data: T } | { success: false; issues: z.core.$ZodIssue[] };

/**
 * Validates `input` (structured-cloned to the thread, so NaN, undefined and Dates arrive as they are) against the
 * named schema in a worker thread: its data or zod's issues, as safeParse gives them inline. A value that cannot be
 * cloned (a function) rejects with the DataCloneError.
 */
export async function validateOffThread(name: OffThreadBody, input: unknown): Promise<InputCheck<unknown>> {
  const result = (await bodyPool().run({ kind: "input", name, input })) as InputResult;
  metrics().largeBodyDecodeDuration.observe({ where: "thread" }, result.seconds);
  return result.ok ? { success: true, data: result.data } : { success: false, issues: result.issues };
}
