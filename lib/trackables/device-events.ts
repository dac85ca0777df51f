import type { ProducedEvent } from "@/lib/events/produced";
import { batteryLowPayload, locationOf, locationUpdatedPayload, statusChangedPayload, type BeaconPayload } from "@/lib/events/payloads";

// The events a device's own reports make: its status (online on a location after being offline or never seen,
// offline from the sweep), a fall of its battery below the threshold and each newest location.

type Status = "online" | "offline";
interface Fix {
  latitude: number;
  longitude: number;
  accuracy: number | null;
  timestamp: Date;
}

/** device.status_changed at `at` (the server time of the location that brought it online, or of the sweep). */
export function statusChanged(beacon: BeaconPayload, previous: Status, current: Status, at: Date): ProducedEvent {
  return { type: "device.status_changed", trackableId: beacon.id, occurredAt: at, payload: statusChangedPayload(beacon, at, previous, current) };
}

/** location.updated for a newest location (not recorded: producers make it only when a consumer wants it). */
export function locationUpdated(beacon: BeaconPayload, fix: Fix): ProducedEvent {
  const location = locationOf(fix);
  return { type: "location.updated", trackableId: beacon.id, occurredAt: fix.timestamp, payload: locationUpdatedPayload(beacon, location) };
}

/**
 * battery.low when this fix's reading falls below the threshold from `before` (the last known level; a device whose
 * first reading is already low counts as falling), else null.
 */
export function batteryLow(beacon: BeaconPayload, fix: Fix & { battery: number | null }, before: number | null, threshold: number): ProducedEvent | null {
  if (fix.battery === null || fix.battery >= threshold || (before !== null && before < threshold)) return null;
  const location = locationOf(fix);
  return {
    type: "battery.low",
    trackableId: beacon.id,
    occurredAt: fix.timestamp,
    location,
    payload: batteryLowPayload(beacon, location, fix.battery, threshold),
  };
}
