import { z } from "zod";
import { EVALUATION_BATCH, evaluateTrackable } from "@/lib/geofences/evaluate-trackable";
import { defineWorkflow } from "../types";

/**
 * Points in a round after `attempt` failed tries of it: the whole batch, then a sixteenth of it on each retry, down
 * to one point (2000, 125, 7, 1 …). A round that fails for its size or for one bad point then gets past the good
 * points before it, and the last try, of one point, skips that point if it fails again.
 */
export function roundSize(attempt: number): number {
  return Math.max(1, Math.floor(EVALUATION_BATCH / 16 ** attempt));
}

/**
 * evaluate-geofences: brings a trackable's geofence state up to its newest locations and emits the events. Runs are
 * serialized per trackable (concurrency key; the state row lock backs it up in the database). A point whose
 * evaluation fails on every try is skipped with a logged reason, so it never stops the trackable's later locations.
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
      const result = await io.runTask(`evaluate-${round}`, () => evaluateTrackable(trackableId, { maxPoints, skipPointOnFailure: last }));
      if (!result.more) return;
    }
  },
});
