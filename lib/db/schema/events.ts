import { index, integer, json, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import type { RecordedEventType } from "../../events/registry";
import { createdAt, id, ts } from "./columns";

export const EVENT_REASONS = ["crossing", "dwell", "geofence_deleted", "unassigned", "trackable_deleted", "geofence_changed"] as const;
export type EventReason = (typeof EVENT_REASONS)[number];

export interface EventLocation {
  latitude: number;
  longitude: number;
  accuracy: number | null;
  timestamp: string;
}

// Every geofence transition, dwell, battery.low and device.status_changed, on every plan, written in the transaction
// that changes the state. The record outlives its trackable and geofence (a trackable_deleted exit must stay
// readable), so those ids carry no foreign key. Nor does account_id: a key check would lock the account's row for
// every event, and concurrent evaluations of one account's trackables then share that lock as a multixact, which
// cost ~9 µs an event row in Postgres (measured with 100-point batches, bench/pg-statements.ts). Accounts are never deleted by the app; whoever deletes one
// deletes its events first (deleteAccounts in lib/accounts/accounts.ts).
export const events = pgTable(
  "events",
  {
    id: id(),
    accountId: uuid("account_id").notNull(),
    // The registry's recorded types (lib/events/registry.ts), checked where events are made and where a type is
    // accepted as input: no CHECK here, so a new type needs no migration.
    type: text("type").$type<RecordedEventType>().notNull(),
    trackableId: uuid("trackable_id").notNull(),
    geofenceId: uuid("geofence_id"),
    occurredAt: ts("occurred_at").notNull(),
    location: jsonb("location").$type<EventLocation>(),
    reason: text("reason", { enum: EVENT_REASONS }),
    durationSeconds: integer("duration_seconds"),
    confidence: text("confidence", { enum: ["high", "low"] }),
    // The event's payload exactly as delivered (json keeps its bytes and key order; jsonb would reorder the keys),
    // so later readers send what the webhooks got. Null on events recorded before it was kept, and on a synthetic
    // transition of a trackable with no evaluated location (nothing was sent).
    // The trip (lib/motion) the event belongs to: trip.* and speed.exceeded during one.
    tripId: uuid("trip_id"),
    payload: json("payload").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    // GET /events pages an account's events newest first by (occurred_at, id).
    index("events_account_occurred_idx").on(t.accountId, t.occurredAt.desc(), t.id.desc()),
    // …filtered by trackable (the trackable page's timeline) or by geofence (the geofence page's recent events).
    index("events_trackable_occurred_idx").on(t.accountId, t.trackableId, t.occurredAt.desc(), t.id.desc()),
    index("events_geofence_occurred_idx").on(t.accountId, t.geofenceId, t.occurredAt.desc(), t.id.desc()),
  ],
);

export type EventRow = typeof events.$inferSelect;
export type NewEventRow = typeof events.$inferInsert;
