// Event payloads (what a webhook receives) keep the spec's names (snake_case `occurred_at`, `beacon`). Key order is
// fixed here and preserved by the json columns of events and deliveries, so every reader gets the same bytes.

export interface BeaconPayload {
  id: string;
  name: string;
  type: string;
}
export interface GeofencePayload {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  radius: number;
}
export interface LocationPayload {
  latitude: number;
  longitude: number;
  accuracy: number | null;
  timestamp: string;
}

export const beaconOf = (t: { id: string; name: string; type: string }): BeaconPayload => ({ id: t.id, name: t.name, type: t.type });
export const geofenceOf = (g: GeofencePayload): GeofencePayload => ({
  id: g.id,
  name: g.name,
  latitude: g.latitude,
  longitude: g.longitude,
  radius: g.radius,
});
export const locationOf = (l: { latitude: number; longitude: number; accuracy: number | null; timestamp: Date }): LocationPayload => ({
  latitude: l.latitude,
  longitude: l.longitude,
  accuracy: l.accuracy,
  timestamp: l.timestamp.toISOString(),
});

export function geofenceEventPayload<E extends "geofence.entry" | "geofence.exit">(
  event: E,
  geofence: GeofencePayload,
  beacon: BeaconPayload,
  location: LocationPayload,
) {
  return { event, occurred_at: location.timestamp, geofence: geofenceOf(geofence), beacon, location };
}

/** The entry payload's fields with "event": "geofence.dwell", plus how long the trackable has been inside. */
export function geofenceDwellPayload(geofence: GeofencePayload, beacon: BeaconPayload, location: LocationPayload, seconds: number) {
  return { event: "geofence.dwell" as const, occurred_at: location.timestamp, geofence: geofenceOf(geofence), beacon, location, dwell: { seconds } };
}

export function locationUpdatedPayload(beacon: BeaconPayload, location: LocationPayload) {
  return { event: "location.updated" as const, occurred_at: location.timestamp, beacon, location };
}

export function batteryLowPayload(beacon: BeaconPayload, location: LocationPayload, level: number, threshold: number) {
  return { event: "battery.low" as const, occurred_at: location.timestamp, beacon, location, battery: { level, threshold } };
}

export function statusChangedPayload(
  beacon: BeaconPayload,
  occurredAt: Date,
  previous: "online" | "offline",
  current: "online" | "offline",
) {
  return { event: "device.status_changed" as const, occurred_at: occurredAt.toISOString(), beacon, status: { previous, current } };
}
