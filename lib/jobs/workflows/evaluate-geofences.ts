import { z } from "zod";
import { env } from "@/lib/config/env";
import { metrics } from "@/lib/metrics/registry";
import { EVALUATION_BATCH, evaluateTrackable, evaluateTrackables, TRACKABLES_PER_RUN, type RoundOptions } from "@/lib/geofences/evaluate-trackable";
import { defineWorkflow } from "../types";

/**
 * Points in a round after `attempt` failed tries of it: the whole batch, then a sixteenth of it on each retry, down
 * to one point (2000, 125, 7, 1 …). A round that fails for its size or for one bad point then gets past the good
 * points before it, and the last try, of one point, skips that point if it fails again.
 */
export function roundSize(attempt: number): number {
  return Math.max(1, Math.floor(EVALUATION_BATCH / 16 ** attempt));
}

/** One round of each trackable in turn, alone (a batch's retry): the trackables with points left. */
async function eachAlone(trackableIds: readonly string[], opts: RoundOptions): Promise<string[]> {
  const more: string[] = [];
  for (const id of trackableIds) if ((await evaluateTrackable(id, opts)).more) more.push(id);
  return more;
}

/**
 * evaluate-geofences: brings trackables' geofence state up to their newest locations and emits the events. A run is
 * started per trackable by each post (one queued run per trackable at most: later posts join it) and runs of one
 * trackable never overlap (concurrency key; the state row lock backs it up in the database). Runs that are due
 * together are evaluated together (`batch`): one transaction per round for all of their trackables, so the cost of a
 * round is paid once for every trackable that posted while the last one ran. A failed batch is tried again trackable
 * by trackable, in shrinking rounds; a point whose evaluation fails on every try is skipped with a logged reason, so
 * it never stops the trackable's later locations.
 */
export const evaluateGeofences = defineWorkflow({
  name: "evaluate-geofences",
  event: "fenceline/locations.ingested",
  payload: z.object({ trackableId: z.uuid() }),
  concurrencyKey: { field: "trackableId" },
  async run({ trackableId }, io) {
    for (let round = 1; ; round++) {
      const last = io.attempt >= io.maxAttempts - 1;
      const maxPoints = roundSize(io.attempt);
      const result = await io.runTask(`evaluate-${round}`, () => timedRound(() => evaluateTrackable(trackableId, { maxPoints, skipPointOnFailure: last })));
      if (!result.more) return;
    }
  },
  batch: {
    maxSize: TRACKABLES_PER_RUN,
    lingerMs: () => env().EVALUATION_LINGER_MS,
    async run(payloads, io) {
      let ids = [...new Set(payloads.map((p) => p.trackableId))];
      for (let round = 1; ids.length > 0; round++) {
        // The try of this round's step: the first evaluates all trackables together; a retry (Inngest) takes them one
        // by one in shrinking rounds, skipping a point that fails on the last try.
        const attempt = io.attempt;
        const opts = { maxPoints: roundSize(attempt), skipPointOnFailure: attempt >= io.maxAttempts - 1 };
        ids = await io.runTask(`evaluate-${round}`, () => timedRound(async () => (attempt === 0 ? (await evaluateTrackables(ids)).more : eachAlone(ids, opts))));
      }
    },
  },
});

/** Runs one evaluation round, observed in fenceline_evaluation_round_duration_seconds by its outcome. */
async function timedRound<T>(round: () => Promise<T>): Promise<T> {
  const end = metrics().evaluationRounds.startTimer();
  try {
    const result = await round();
    end({ outcome: "ok" });
    return result;
  } catch (err) {
    end({ outcome: "error" });
    throw err;
  }
}
