import { z } from "zod";
import { RECORDED_EVENT_TYPES } from "@/lib/events/registry";
import { cursorParam, limitParam, pageOf } from "@/lib/http/pagination";
import { Id, Timestamp } from "@/lib/schemas/common";
import { NOTIFICATION_DELIVERY_STATUSES, SUPPRESSION_REASONS } from "@/lib/db/schema/notification-deliveries";
import { PLACEHOLDERS, unknownPlaceholders } from "./messages";
import { isTimeZone } from "@/lib/schemas/time-zone";
import { WEEKDAYS } from "./schedule";

const Name = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters").meta({ description: "Your name for the rule", example: "Depot arrivals" });
const unique = <T>(a: T[]) => new Set(a).size === a.length;

const EventTypes = z
  .array(z.enum(RECORDED_EVENT_TYPES, { error: `must be one of ${RECORDED_EVENT_TYPES.join(", ")}` }))
  .min(1, "must list at least one event type")
  .refine(unique, "must not repeat an event type")
  .meta({ description: "Recorded event types the rule matches (GET /event-types: those with recorded true)", example: ["geofence.entry"] });
const IdList = (what: string, all: string) =>
  z
    .array(Id)
    .min(1, `must list at least one ${what}, or be null for ${all}`)
    .max(100, "must list at most 100 ids")
    .refine(unique, "must not repeat an id")
    .nullable()
    .meta({ description: `Ids of the account's ${what}s; null: ${all}` });
const ChannelIds = z
  .array(Id)
  .min(1, "must list at least one channel")
  .max(20, "must list at most 20 channels")
  .refine(unique, "must not repeat an id")
  .meta({ description: "Ids of the account's notification channels that receive the rule's messages" });

const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be HH:MM (00:00–23:59)");
export const Schedule = z
  .strictObject({
    timeZone: z.string().refine(isTimeZone, "must be an IANA time zone, e.g. Europe/Berlin").meta({ example: "Europe/Berlin" }),
    days: z.array(z.enum(WEEKDAYS)).refine(unique, "must not repeat a day").meta({ example: ["mon", "tue", "wed", "thu", "fri"] }),
    from: HHMM.meta({ example: "07:00" }),
    to: HHMM.meta({ example: "19:00" }),
  })
  .nullable()
  .meta({
    id: "NotificationSchedule",
    description:
      "When messages are sent, on the wall clock of `timeZone`: from `from` (inclusive) to `to` (exclusive) on each of " +
      "`days`. `from` later than `to` spans midnight (the night belongs to the day it starts on); `from` = `to` is 24 hours. " +
      "Outside it, deliveries are `suppressed` with reason `schedule`. null: always. The rule's zone also sets the time in messages",
  });

const templateText = (part: string) =>
  z
    .string()
    .max(part === "title" ? 200 : 2000, `must be at most ${part === "title" ? 200 : 2000} characters`)
    .superRefine((text, ctx) => {
      for (const name of unknownPlaceholders(text)) ctx.addIssue({ code: "custom", message: `unknown placeholder {{${name}}} (known: ${PLACEHOLDERS.join(", ")})` });
    });
export const Template = z
  .strictObject({ title: templateText("title").optional(), body: templateText("body").optional() })
  .nullable()
  .meta({
    id: "NotificationTemplate",
    description: `Your wording; a part left out keeps the default sentence. Placeholders: ${PLACEHOLDERS.map((p) => `{{${p}}}`).join(", ")} (empty when the event has no such value)`,
    example: { title: "{{trackable.name}} at {{geofence.name}}", body: "{{time}} · {{link}}" },
  });

const Cooldown = z.number().int("must be a whole number").min(0).max(604_800).meta({ description: "Seconds after a notified event during which the same (rule, trackable, type) is `suppressed` with reason `cooldown`" });
const MaxAge = z.number().int("must be a whole number").min(1).max(604_800).meta({ description: "Events older than this when matched (late batches) are `suppressed` with reason `stale`" });

export const NotificationRule = z
  .object({
    id: Id,
    name: z.string(),
    enabled: z.boolean(),
    eventTypes: z.array(z.string()),
    trackableIds: z.array(Id).nullable(),
    geofenceIds: z.array(Id).nullable(),
    channelIds: z.array(Id),
    schedule: Schedule,
    cooldownSeconds: z.number().int(),
    maxEventAgeSeconds: z.number().int(),
    template: Template,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "NotificationRule" });
export type NotificationRule = z.infer<typeof NotificationRule>;

export const CreateNotificationRuleInput = z
  .strictObject({
    name: Name,
    enabled: z.boolean().default(true),
    eventTypes: EventTypes,
    trackableIds: IdList("trackable", "every trackable").default(null),
    geofenceIds: IdList("geofence", "any geofence (a rule with geofences only matches events of those geofences)").default(null),
    channelIds: ChannelIds,
    schedule: Schedule.default(null),
    cooldownSeconds: Cooldown.default(0),
    maxEventAgeSeconds: MaxAge.default(900),
    template: Template.default(null),
  })
  .meta({ id: "CreateNotificationRuleInput" });
export type CreateNotificationRuleInput = z.output<typeof CreateNotificationRuleInput>;

export const UpdateNotificationRuleInput = z
  .strictObject({
    name: Name.optional(),
    enabled: z.boolean().optional(),
    eventTypes: EventTypes.optional(),
    trackableIds: IdList("trackable", "every trackable").optional(),
    geofenceIds: IdList("geofence", "any geofence").optional(),
    channelIds: ChannelIds.optional(),
    schedule: Schedule.optional(),
    cooldownSeconds: Cooldown.optional(),
    maxEventAgeSeconds: MaxAge.optional(),
    template: Template.optional(),
  })
  .meta({ id: "UpdateNotificationRuleInput" });
export type UpdateNotificationRuleInput = z.output<typeof UpdateNotificationRuleInput>;

export const NotificationRuleListQuery = z.object({ limit: limitParam(100, 20), cursor: cursorParam });
export const NotificationRulePage = pageOf(NotificationRule, "NotificationRulePage");

export const NotificationDelivery = z
  .object({
    id: Id,
    ruleId: Id.nullable().meta({ description: "null once the rule is deleted" }),
    channelId: Id.nullable().meta({ description: "null once the channel is deleted" }),
    eventId: Id,
    eventType: z.string(),
    trackableId: Id,
    status: z.enum(NOTIFICATION_DELIVERY_STATUSES).meta({ description: "`pending` until sent or given up; `suppressed` was never sent (see reason)" }),
    reason: z.enum(SUPPRESSION_REASONS).nullable().meta({ description: "Why a suppressed delivery was not sent; null otherwise" }),
    title: z.string().meta({ description: "The message's title", example: "Van 12 entered Depot" }),
    body: z.string().meta({ example: "at 14:03 (Europe/Berlin) · 52.52000, 13.40500 · https://fenceline.example.com/trackables/…" }),
    attempts: z.array(
      z.object({
        attemptedAt: Timestamp,
        statusCode: z.number().int().nullable().meta({ description: "The service's HTTP status; null for e-mail and when no answer came" }),
        error: z.string().nullable(),
      }),
    ),
    nextAttemptAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: "NotificationDelivery" });
export type NotificationDelivery = z.infer<typeof NotificationDelivery>;

export const NotificationDeliveryListQuery = z.object({
  ruleId: Id.optional(),
  channelId: Id.optional(),
  eventId: Id.optional(),
  status: z.enum(NOTIFICATION_DELIVERY_STATUSES).optional(),
  limit: limitParam(100, 20),
  cursor: cursorParam,
});
export type NotificationDeliveryListQuery = z.infer<typeof NotificationDeliveryListQuery>;
export const NotificationDeliveryPage = pageOf(NotificationDelivery, "NotificationDeliveryPage");
