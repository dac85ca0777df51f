import { z } from "zod";
import { Id } from "@/lib/schemas/common";
import { speedExceededPayload } from "@/lib/motion/payloads";
import { BeaconSchema, defineEvent, LocationRefSchema, OccurredAt } from "../declaration";

export const speedExceeded = defineEvent({
  type: "speed.exceeded",
  label: "Speeding",
  description: "A trackable was above its speed limit for speedMinDuration seconds (once per episode)",
  recorded: true,
  deliveredOn: ["enterprise"],
  payload: z
    .object({
      event: z.literal("speed.exceeded"),
      occurred_at: OccurredAt,
      beacon: BeaconSchema,
      location: LocationRefSchema,
      speed: z.object({
        value: z.number().meta({ description: "m/s at that fix (reported, else the leg speed)" }),
        limit: z.number().meta({ description: "m/s: the lower of the trackable's speedLimit and those of the geofences containing the fix" }),
        geofenceId: Id.nullable().meta({ description: "The geofence whose limit applied; null for the trackable's own" }),
      }),
    })
    .meta({ id: "SpeedExceededEvent", description: "Sent at the fix where an episode above the limit had lasted speedMinDuration; re-armed when the speed falls to the limit" }),
  sample: (s) => speedExceededPayload(s.beacon, s.location, { value: 19.4, limit: 13.9, geofenceId: null }),
});
