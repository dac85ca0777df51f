import type { z } from "zod";
import { insertUnnested } from "@/lib/db/bulk";
import { inChunks } from "@/lib/db/chunks";
import { getDb, type Executor } from "@/lib/db/client";
import { jobs } from "@/lib/db/schema";
import { jobsProvider } from "./config";
import type { Workflow } from "./types";

type Waker = (workflow?: string) => void;
const globalForJobs = globalThis as unknown as { __fencelineWakeRunner?: Waker };

/** The embedded runner registers itself here so that new work starts at once instead of at the next poll. */
export function setRunnerWaker(waker: Waker | undefined) {
  globalForJobs.__fencelineWakeRunner = waker;
}

/**
 * Tells this process's embedded runner that work may be due (call after committing a transaction that enqueued):
 * name the workflow when it is the only one enqueued, so the runner can skip a claim that cannot succeed (see wake).
 */
export function wakeRunner(workflow?: string) {
  globalForJobs.__fencelineWakeRunner?.(workflow);
}

export interface EnqueueOptions {
  /**
   * The caller's transaction: with the embedded runner the job is inserted in it, so the work and the data it
   * depends on commit (or roll back) together; the caller then calls wakeRunner() after the commit. With Inngest the
   * event is sent at once (a send that fails throws, rolling the caller's transaction back).
   */
  executor?: Executor;
  /** At most one queued job per key (a later enqueue joins the queued one: JOIN_QUEUED_RUN). */
  dedupeKey?: string;
  /** Inngest event id: Inngest ignores a second event with the same id (idempotent retries of the sender). */
  eventId?: string;
}

/** Starts a workflow run: an Inngest event when Inngest is configured, a row in the jobs table otherwise. */
export async function enqueue<S extends z.ZodType>(wf: Workflow<S>, payload: z.input<S>, opts: EnqueueOptions = {}): Promise<void> {
  await enqueueMany(wf, [{ payload, dedupeKey: opts.dedupeKey, eventId: opts.eventId }], opts);
}

/**
 * How a run joins the queued run of its dedupe key, in the enqueuing statement: by updating that row, not by doing
 * nothing. The update locks the queued row until the enqueuing transaction commits, and the runner claims with SKIP
 * LOCKED, so the queued run cannot start before the data it is joined for (a post's points) is committed; with DO
 * NOTHING it could, and would miss those points with no run left to evaluate them.
 */
export const JOIN_QUEUED_RUN =
  "on conflict (dedupe_key) where status = 'queued' and dedupe_key is not null do update set updated_at = excluded.updated_at";

// Imported on the first send, once: an import() per call goes through module resolution again (under tsx, its loader
// thread), which costs more than the send's own work.
let inngestClient: Promise<typeof import("@/inngest/client")> | null = null;

/** Events per inngest.send(): one request stays far below Inngest's request size limit. */
const EVENTS_PER_SEND = 500;

/**
 * Starts several runs of one workflow: multi-row inserts into the jobs table (as many rows per statement as the
 * driver allows), or Inngest sends of up to EVENTS_PER_SEND events.
 */
export async function enqueueMany<S extends z.ZodType>(
  wf: Workflow<S>,
  runs: Array<{ payload: z.input<S>; dedupeKey?: string; eventId?: string }>,
  opts: Pick<EnqueueOptions, "executor"> = {},
): Promise<void> {
  if (runs.length === 0) return;
  const parsed = runs.map((r) => ({ ...r, data: wf.payload.parse(r.payload) as Record<string, unknown> }));
  if (jobsProvider() === "inngest") {
    if (!wf.event) throw new Error(`workflow ${wf.name} is not started by an event`);
    const { inngest } = await (inngestClient ??= import("@/inngest/client"));
    await inChunks(parsed, EVENTS_PER_SEND, async (chunk) => {
      await inngest.send(chunk.map((r) => ({ name: wf.event!, data: r.data, ...(r.eventId ? { id: r.eventId } : {}) })));
    });
    return;
  }
  const executor = opts.executor ?? (await getDb());
  const concurrencyField = wf.concurrencyKey?.field;
  // One row per dedupe key (an upsert may not touch a row twice in one statement): later runs join the first.
  const keys = new Set<string>();
  const unique = parsed.filter((r) => !r.dedupeKey || (!keys.has(r.dedupeKey) && keys.add(r.dedupeKey)));
  await insertUnnested(
    executor,
    jobs,
    unique.map((r) => ({
      name: wf.name,
      payload: r.data,
      dedupeKey: r.dedupeKey ?? null,
      concurrencyKey: concurrencyField ? `${wf.name}:${String(r.data[concurrencyField])}` : null,
    })),
    { onConflict: JOIN_QUEUED_RUN },
  );
  if (!opts.executor) wakeRunner(wf.name);
}
