import { z } from "zod";
import { cursorParam, limitParam, pageOf } from "@/lib/http/pagination";
import { Id, Timestamp, TimestampInput } from "@/lib/schemas/common";
import { REDACTED } from "./changes";

export const ACTOR_TYPES = ["user", "apiKey"] as const;

export const AuditEntry = z
  .object({
    id: Id,
    occurredAt: Timestamp.meta({ description: "When the change was made (server time)" }),
    actor: z
      .object({
        type: z.enum(ACTOR_TYPES).meta({ description: '"user": a dashboard user; "apiKey": a request with an API key' }),
        id: Id.meta({ description: "The user's or the API key's id" }),
        name: z.string().meta({ description: "The user's name (or email) or the key's name, as it was at the time", example: "Deploy key" }),
      })
      .meta({ description: "Who made the change" }),
    clientAddress: z.string().nullable().meta({ description: "The client's address, as the server saw it (TRUST_PROXY); null when unknown", example: "203.0.113.7" }),
    action: z.string().meta({ description: "`<objectType>.<verb>`, e.g. geofence.updated, webhook.secretRotated, user.signedIn", example: "geofence.updated" }),
    objectType: z.string().meta({
      description: "apiKey, trackable, geofence, deviceToken, webhook, notificationChannel, notificationRule, shareLink, privacyZone, account or user",
      example: "geofence",
    }),
    objectId: z.string().meta({ description: "The changed object's id", example: "01936f4e-5c2a-7b3e-9a41-2f0c8d6e1a55" }),
    changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])).meta({
      description:
        "`{field: [before, after]}` for each field that changed (nested fields by dotted name, e.g. `motion.stopMinutes`); " +
        `null before on creation, null after on deletion. Secrets never appear: a secret field reads "${REDACTED}" on the side where it is set.`,
      example: { radius: [100, 250], webhookSecret: [REDACTED, REDACTED] },
    }),
  })
  .meta({ id: "AuditEntry" });
export type AuditEntry = z.infer<typeof AuditEntry>;

const Filter = (description: string) => z.string().trim().min(1).max(200).optional().meta({ description });

export const AuditLogQuery = z.object({
  actorId: z.uuid({ error: "must be a user or API key id (UUID)" }).overwrite((s) => s.toLowerCase()).optional().meta({ description: "Only what this user or API key did" }),
  action: Filter("Only this action, e.g. geofence.updated"),
  objectType: Filter("Only changes to this kind of object, e.g. geofence"),
  from: TimestampInput.optional().meta({ description: "Only entries at or after this time (inclusive)" }),
  to: TimestampInput.optional().meta({ description: "Only entries at or before this time (inclusive)" }),
  limit: limitParam(100, 20),
  cursor: cursorParam,
});
export type AuditLogQuery = z.infer<typeof AuditLogQuery>;

export const AuditLogPage = pageOf(AuditEntry, "AuditLogPage");
