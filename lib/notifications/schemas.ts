import { z } from "zod";
import { cursorParam, limitParam, pageOf } from "@/lib/http/pagination";
import { Id, Timestamp } from "@/lib/schemas/common";
import { CHANNELS, CHANNEL_TYPES, type ChannelType } from "./channels";

const Name = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(100, "must be at most 100 characters")
  .meta({ description: "Your name for the channel, 1–100 characters", example: "Dispatch phones" });
const Enabled = z.boolean().meta({ description: "Disabled channels receive nothing (the test still sends)" });

const ChannelTypeSchema = z.enum(CHANNEL_TYPES).meta({ description: "The channel type: decides the shape of config", example: "ntfy" });

export const NotificationChannel = z
  .object({
    id: Id,
    name: z.string(),
    type: ChannelTypeSchema,
    config: z.record(z.string(), z.unknown()).meta({
      description:
        "The type's config without its secrets: `token` (ntfy), `appToken` (gotify) and `botToken` (telegram) read back as " +
        "`tokenSet`, `appTokenSet`, `botTokenSet`; the webhook URL of discord and slack (its path is the secret) reads back " +
        "as `webhookOrigin` and `webhookUrlSet`",
      example: { serverUrl: "https://ntfy.sh", topic: "fleet-7f3a9c", tokenSet: false },
    }),
    enabled: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "NotificationChannel" });
export type NotificationChannel = z.infer<typeof NotificationChannel>;

const createVariant = (type: ChannelType) =>
  z
    .strictObject({
      name: Name,
      type: z.literal(type),
      config: CHANNELS[type].config,
      enabled: Enabled.default(true),
    })
    .meta({ id: `Create${type[0]!.toUpperCase()}${type.slice(1)}ChannelInput`, description: `A ${CHANNELS[type].label} channel` });

// One variant per entry of the channel registry: a new channel type needs no change here.
export const CreateNotificationChannelInput = z
  .discriminatedUnion(
    "type",
    CHANNEL_TYPES.map(createVariant) as unknown as [ReturnType<typeof createVariant>, ...ReturnType<typeof createVariant>[]],
    { error: `type: must be one of ${CHANNEL_TYPES.join(", ")}` },
  )
  .meta({ id: "CreateNotificationChannelInput" });
export interface CreateNotificationChannelInput {
  name: string;
  type: ChannelType;
  config: Record<string, unknown>;
  enabled: boolean;
}

export const UpdateNotificationChannelInput = z
  .strictObject({
    name: Name.optional(),
    enabled: Enabled.optional(),
    config: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({
        description:
          "Fields to change, checked as the type's whole config after merging: omitted fields (secrets included) keep " +
          "their value, null removes an optional one (e.g. ntfy's token). The type cannot change",
        example: { topic: "fleet-night-shift" },
      }),
  })
  .meta({ id: "UpdateNotificationChannelInput" });
export type UpdateNotificationChannelInput = z.infer<typeof UpdateNotificationChannelInput>;

export const NotificationChannelListQuery = z.object({ limit: limitParam(100, 20), cursor: cursorParam });
export const NotificationChannelPage = pageOf(NotificationChannel, "NotificationChannelPage");

export const ChannelTestResult = z
  .object({
    delivered: z.boolean().meta({ description: "True when the service accepted the message (a 2xx answer; every address accepted for e-mail)" }),
    statusCode: z.number().int().nullable().meta({ description: "The service's HTTP status; null for e-mail and when no answer came" }),
    error: z.string().nullable().meta({ description: "Why it was not delivered, or null", example: null }),
  })
  .meta({ id: "NotificationChannelTestResult" });
export type ChannelTestResult = z.infer<typeof ChannelTestResult>;
