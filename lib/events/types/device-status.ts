import { z } from "zod";
import { BeaconSchema, defineEvent, OccurredAt } from "../declaration";
import { statusChangedPayload } from "../payloads";

export const DeviceStatusChange = z.object({ previous: z.enum(["online", "offline"]), current: z.enum(["online", "offline"]) });

export const deviceStatusChanged = defineEvent({
  type: "device.status_changed",
  label: "Came online / went offline",
  description: "A trackable went online or offline",
  recorded: true,
  deliveredOn: ["enterprise"],
  payload: z
    .object({ event: z.literal("device.status_changed"), occurred_at: OccurredAt, beacon: BeaconSchema, status: DeviceStatusChange })
    .meta({ id: "DeviceStatusChangedEvent", description: "online on a location after being offline or never seen; offline after DEVICE_OFFLINE_AFTER_S without one" }),
  sample: (s) => statusChangedPayload(s.beacon, new Date(s.location.timestamp), "offline", "online"),
});
