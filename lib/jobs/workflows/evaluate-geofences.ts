import { z } from "zod";
import { evaluateTrackable } from "@/lib/geofences/evaluate-trackable";
import { defineWorkflow } from "../types";

/**
 * evaluate-geofences: brings a trackable's geofence state up to its newest locations and emits the events. Runs are
 * serialized per trackable (concurrency key; the state row lock backs it up in the database).
 */
export const evaluateGeofences = defineWorkflow({
  name: "evaluate-geofences",
  event: "fenceline/locations.ingested",
  payload: z.object({ trackableId: z.uuid() }),
  concurrencyKey: { field: "trackableId" },
  async run({ trackableId }, io) {
    for (let round = 1; ; round++) {
      const result = await io.runTask(`evaluate-${round}`, () => evaluateTrackable(trackableId));
      if (!result.more) return;
    }
  },
});
