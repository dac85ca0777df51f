import { z } from "zod";
import { BeaconSchema, defineEvent, LocationRefSchema, OccurredAt } from "../declaration";
import { batteryLowPayload } from "../payloads";

export const batteryLow = defineEvent({
  type: "battery.low",
  label: "Battery low",
  description: "A trackable's battery fell below the threshold",
  recorded: true,
  deliveredOn: ["enterprise"],
  payload: z
    .object({
      event: z.literal("battery.low"),
      occurred_at: OccurredAt,
      beacon: BeaconSchema,
      location: LocationRefSchema,
      battery: z.object({ level: z.number().meta({ description: "Percent" }), threshold: z.number().meta({ description: "BATTERY_LOW_THRESHOLD" }) }),
    })
    .meta({ id: "BatteryLowEvent", description: "The battery fell below BATTERY_LOW_THRESHOLD" }),
  sample: (s) => batteryLowPayload(s.beacon, s.location, 19, 20),
});
