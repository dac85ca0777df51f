import { z } from "zod";
import { EVENTS, type EventRegistry } from "@/lib/events/registry";

const csv = <T extends z.ZodType>(item: T, what: string) =>
  z
    .string()
    .max(4000)
    .transform((s, ctx) => {
      const out: z.output<T>[] = [];
      for (const part of s.split(",").map((p) => p.trim()).filter(Boolean)) {
        const parsed = item.safeParse(part);
        if (parsed.success) out.push(parsed.data);
        else ctx.addIssue({ code: "custom", message: `"${part}" is not ${what}` });
      }
      return out;
    })
    .optional();

const uuid = z.uuid().overwrite((s) => s.toLowerCase());

/** The stream's query for the types of a registry (the service's own: StreamQuery). */
export const streamQuery = <T extends string>(registry: EventRegistry<T>) =>
  z.object({
    types: csv(z.enum(registry.types), `an event type (${registry.types.join(", ")})`).meta({
      description: "Comma-separated event types; none: every type",
      example: "geofence.entry,geofence.exit",
    }),
    trackableIds: csv(uuid, "a trackable id (UUID)").meta({ description: "Comma-separated trackable ids; none: every trackable" }),
    geofenceIds: csv(uuid, "a geofence id (UUID)").meta({ description: "Comma-separated geofence ids; none: events of any geofence or none" }),
    after: z.string().min(1).max(512).optional().meta({ description: "Resume after this cursor (a frame's id); Last-Event-ID wins over it" }),
    access_token: z.string().max(512).optional().meta({ description: "A stream token (POST /stream-tokens), for clients that cannot send headers" }),
  });
export const StreamQuery = streamQuery(EVENTS);
export type StreamQuery = z.infer<typeof StreamQuery>;

export const StreamTokenInput = z
  .strictObject({
    expiresIn: z.number().int().min(60).max(3600).default(300).meta({ description: "Lifetime in seconds, 60–3600", example: 300 }),
  })
  .meta({ id: "StreamTokenInput" });
export type StreamTokenInput = z.infer<typeof StreamTokenInput>;

export const StreamToken = z
  .object({
    token: z.string().meta({ description: "Pass as ?access_token= to GET /stream; refused by every other route" }),
    expiresAt: z.iso.datetime().meta({ description: "After this the token opens no new stream (open ones stay open)" }),
  })
  .meta({ id: "StreamToken" });
export type StreamToken = z.infer<typeof StreamToken>;
