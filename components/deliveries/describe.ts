import type { Delivery } from "@/lib/webhooks/delivery-schemas";
import type { DeliveryLabels } from "@/lib/webhooks/delivery-labels";

// Names for a delivery's geofence and trackable: the current name when the object still exists, else the name the
// payload carried when it was sent (the history outlives what it refers to).

const field = (payload: Record<string, unknown>, key: string): string | null => {
  const v = payload[key];
  if (v && typeof v === "object" && "name" in v && typeof v.name === "string") return v.name;
  return null;
};

export const geofenceName = (d: Delivery, labels: DeliveryLabels): string | null =>
  (d.geofenceId ? labels.geofences[d.geofenceId] : undefined) ?? field(d.payload, "geofence");

export const trackableName = (d: Delivery, labels: DeliveryLabels): string | null =>
  (d.trackableId ? labels.trackables[d.trackableId] : undefined) ?? field(d.payload, "beacon");

export const lastAttempt = (d: Delivery) => d.attempts[d.attempts.length - 1] ?? null;
