import { z } from "zod";
import { BeaconSchema, defineEvent, LocationRefSchema, OccurredAt } from "../declaration";
import { locationUpdatedPayload } from "../payloads";

export const locationUpdated = defineEvent({
  type: "location.updated",
  label: "New location",
  description: "Every newest location of a trackable",
  // One per stored point: delivered to subscribers, never kept in the events log (the locations are).
  recorded: false,
  deliveredOn: ["enterprise"],
  payload: z
    .object({ event: z.literal("location.updated"), occurred_at: OccurredAt, beacon: BeaconSchema, location: LocationRefSchema })
    .meta({ id: "LocationUpdatedEvent", description: "A stored location that is the newest for its trackable" }),
  sample: (s) => locationUpdatedPayload(s.beacon, s.location),
});
