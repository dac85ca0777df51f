import type { StopRow, TripRow } from "@/lib/db/schema";
import type { Stop, Trip } from "./schemas";

type TripFields = Pick<
  TripRow,
  "id" | "trackableId" | "status" | "startedAt" | "endedAt" | "startLatitude" | "startLongitude" | "endLatitude" | "endLongitude" | "distance" | "duration" | "maxSpeed" | "pointCount"
>;

/** A trip as the API and the trip events show it. */
export function serializeTrip(r: TripFields): Trip {
  return {
    id: r.id,
    trackableId: r.trackableId,
    status: r.status,
    startedAt: r.startedAt.toISOString(),
    endedAt: r.endedAt ? r.endedAt.toISOString() : null,
    start: { latitude: r.startLatitude, longitude: r.startLongitude },
    end: r.endLatitude !== null && r.endLongitude !== null ? { latitude: r.endLatitude, longitude: r.endLongitude } : null,
    distance: r.distance,
    duration: r.duration,
    maxSpeed: r.maxSpeed,
    averageSpeed: r.duration > 0 ? r.distance / r.duration : 0,
    pointCount: r.pointCount,
  };
}

export function serializeStop(r: StopRow): Stop {
  return {
    trackableId: r.trackableId,
    startedAt: r.startedAt.toISOString(),
    endedAt: r.endedAt ? r.endedAt.toISOString() : null,
    latitude: r.latitude,
    longitude: r.longitude,
    duration: r.duration,
    geofenceIds: r.geofenceIds,
  };
}
