// The payloads of trip.started, trip.ended and speed.exceeded (the webhook bodies), in the spec's key order.
import type { BeaconPayload, LocationPayload } from "@/lib/events/payloads";
import type { Trip } from "./schemas";

export function tripPayload<E extends "trip.started" | "trip.ended">(event: E, beacon: BeaconPayload, occurredAt: string, trip: Trip) {
  return { event, occurred_at: occurredAt, beacon, trip };
}

export function speedExceededPayload(beacon: BeaconPayload, location: LocationPayload, speed: { value: number; limit: number; geofenceId: string | null }) {
  return { event: "speed.exceeded" as const, occurred_at: location.timestamp, beacon, location, speed };
}

/** A trip for sample deliveries: ten minutes and 5 km that began at the sample location. */
export function sampleTrip(beacon: BeaconPayload, location: LocationPayload, completed: boolean): Trip {
  const startedAt = new Date(location.timestamp);
  const endedAt = new Date(startedAt.getTime() + 600_000);
  const end = { latitude: location.latitude + 0.045, longitude: location.longitude };
  return {
    id: "01936f4e-5c2a-7b3e-9a41-2f0c8d6e1a56",
    trackableId: beacon.id,
    status: completed ? "completed" : "ongoing",
    startedAt: startedAt.toISOString(),
    endedAt: completed ? endedAt.toISOString() : null,
    start: { latitude: location.latitude, longitude: location.longitude },
    end: completed ? end : null,
    distance: completed ? 5000 : 0,
    duration: completed ? 600 : 0,
    maxSpeed: completed ? 14.2 : 0,
    averageSpeed: completed ? 5000 / 600 : 0,
    pointCount: completed ? 121 : 2,
  };
}
