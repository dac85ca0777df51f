import type { EventLocation, EventReason } from "@/lib/db/schema/events";
import type { WebhookRow } from "@/lib/db/schema/webhooks";
import type { EventType } from "./registry";

/** A geofence's own webhook, which receives the geofence's events besides the account's endpoints. */
export interface GeofenceTarget {
  id: string;
  notificationType: string;
  webhookUrl: string | null;
  webhookSecret: string | null;
  /** The webhook's previous secret and its expiry, when the producer has them (looked up otherwise). */
  previousSecret?: { secret: string; expiresAt: Date } | null;
}

/**
 * Something that happened, as a producer (evaluation, the offline sweep, a synthetic transition) hands it to
 * recordEvents: its type, what it is about, its payload (the webhook body, made by the type's builder) and the fields
 * of its record in the events log.
 */
export interface ProducedEvent {
  type: EventType;
  trackableId: string;
  geofenceId?: string | null;
  occurredAt: Date;
  /** The webhook payload; null when there is nothing to send (a synthetic transition of a trackable never located). */
  payload: Record<string, unknown> | null;
  location?: EventLocation | null;
  reason?: EventReason | null;
  durationSeconds?: number | null;
  confidence?: "high" | "low" | null;
  /** The trip (lib/motion) the event belongs to. */
  tripId?: string | null;
  /** geofence.*: the geofence, whose own webhook receives the event too. */
  geofence?: GeofenceTarget;
}

/** A produced event once recordEvents has it: with its id when the type is recorded (null otherwise). */
export type RecordedEvent = ProducedEvent & { id: string | null; accountId: string };

/** An account endpoint, as the consumers read it (a WebhookRow has it all). */
export type Endpoint = Pick<WebhookRow, "id" | "accountId" | "url" | "events" | "secret" | "previousSecret" | "previousSecretExpiresAt">;

/** What a producer has already read for the consumers in its transaction (so they need not read it again). */
export interface Prefetched {
  /** The account's enabled webhook endpoints. */
  endpoints?: Endpoint[];
  /** The account's notifications_version, read in this transaction (the notification rules' cache key). */
  notificationsVersion?: number;
}
