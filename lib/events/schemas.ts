import { z } from "zod";
import { EVENT_REASONS } from "@/lib/db/schema/events";
import { cursorParam, limitParam, pageOf } from "@/lib/http/pagination";
import { Id, Timestamp, TimestampInput } from "@/lib/schemas/common";
import { RECORDED_EVENT_TYPES } from "./registry";
import { DeviceStatusChange } from "./types/device-status";

const Uuid = (what: string) => z.uuid({ error: `must be a ${what} id (UUID)` }).overwrite((s) => s.toLowerCase());

export const EventType = z.enum(RECORDED_EVENT_TYPES, { error: `must be one of ${RECORDED_EVENT_TYPES.join(", ")}` }).meta({
  description: "What happened",
  example: "geofence.entry",
});

export const Event = z
  .object({
    id: Id.meta({ description: "Event id; deliveries of it carry it as eventId" }),
    type: z.enum(RECORDED_EVENT_TYPES).meta({ description: "What happened", example: "geofence.entry" }),
    trackableId: Id,
    geofenceId: Id.nullable().meta({ description: "The geofence of a geofence.* event; null for the others" }),
    occurredAt: Timestamp.meta({
      description:
        "When it happened: the timestamp of the point that crossed (with a debounce, the first point on the new side), " +
        "the time of the change for a synthetic transition, the server time for device.status_changed",
    }),
    location: z
      .object({
        latitude: z.number(),
        longitude: z.number(),
        accuracy: z.number().nullable().meta({ description: "Metres, null when not reported" }),
        timestamp: Timestamp,
      })
      .nullable()
      .meta({ description: "The location that caused it (for a synthetic transition, the last evaluated one); null when there is none" }),
    reason: z.enum(EVENT_REASONS).nullable().meta({
      description:
        '"crossing" for a real entry or exit, "dwell" for geofence.dwell; a synthetic transition gives why it happened ' +
        '(geofence_deleted, unassigned, trackable_deleted, geofence_changed); null for battery.low and device.status_changed',
    }),
    durationSeconds: z.number().int().nullable().meta({
      description: "geofence.exit: the visit's length in whole seconds (null when the entry predates the event log); geofence.dwell: seconds inside; else null",
    }),
    confidence: z.enum(["high", "low"]).nullable().meta({
      description:
        "For an entry or exit caused by a point: high when the point's accuracy circle lies wholly on the event's side of " +
        "the boundary, low when it crosses the boundary, null when the accuracy is unknown. null for every other event.",
    }),
    tripId: z.uuid().nullable().meta({ description: "The trip (GET /trips/{tripId}) the event belongs to: trip.started, trip.ended and speed.exceeded during one; else null" }),
    status: DeviceStatusChange.nullable().optional().meta({
      description:
        "Only on device.status_changed (absent on every other type): the status before and after, as its webhook " +
        "payload says (`previous` is offline for a device never seen before); null on one recorded before this was kept",
      example: { previous: "offline", current: "online" },
    }),
    createdAt: Timestamp,
  })
  .meta({ id: "Event" });
export type Event = z.infer<typeof Event>;

export const EventListQuery = z.object({
  trackableId: Uuid("trackable").optional().meta({ description: "Only this trackable's events" }),
  geofenceId: Uuid("geofence").optional().meta({ description: "Only this geofence's events" }),
  type: EventType.optional().meta({ description: "Only events of this type" }),
  from: TimestampInput.optional().meta({ description: "Only events that occurred at or after this time (inclusive)" }),
  to: TimestampInput.optional().meta({ description: "Only events that occurred at or before this time (inclusive)" }),
  limit: limitParam(100, 20),
  cursor: cursorParam,
});
export type EventListQuery = z.infer<typeof EventListQuery>;

export const EventPage = pageOf(Event, "EventPage");

export const EventTypeInfo = z
  .object({
    type: z.string().meta({ description: "The event type's name, as in `Event.type`, webhook subscriptions and payloads' `event`", example: "geofence.entry" }),
    label: z.string().meta({ description: "A short label for lists and filters", example: "Entered a geofence" }),
    description: z.string().meta({ description: "What happened", example: "A trackable entered a geofence" }),
    recorded: z.boolean().meta({ description: "Whether the events log keeps it (GET /events); location.updated is delivered only" }),
  })
  .meta({ id: "EventType" });
export type EventTypeInfo = z.infer<typeof EventTypeInfo>;

export const EventTypeList = z.object({ data: z.array(EventTypeInfo) }).meta({ id: "EventTypeList" });
export type EventTypeList = z.infer<typeof EventTypeList>;
