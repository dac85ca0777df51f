import type { LocationRow } from "@/lib/db/schema";
import type { Location } from "./schemas";

export function serializeLocation(row: LocationRow): Location {
  return {
    id: row.id,
    trackableId: row.trackableId,
    latitude: row.latitude,
    longitude: row.longitude,
    accuracy: row.accuracy,
    altitude: row.altitude,
    speed: row.speed,
    heading: row.heading,
    battery: row.battery,
    timestamp: row.timestamp.toISOString(),
    receivedAt: row.receivedAt.toISOString(),
    source: row.source,
  };
}
