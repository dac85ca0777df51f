import { z } from "zod";
import { cursorParam, limitParam, pageOf } from "@/lib/http/pagination";
import { Id, Timestamp } from "@/lib/schemas/common";

const Name = z.string().trim().min(1, "must be 1–100 characters").max(100, "must be 1–100 characters");

export const CreateDeviceTokenInput = z
  .strictObject({
    name: Name.optional().meta({ description: "1–100 characters: which phone or app holds it", example: "Anna's iPhone (OwnTracks)" }),
  })
  .meta({ id: "CreateDeviceTokenInput" });
export type CreateDeviceTokenInput = z.infer<typeof CreateDeviceTokenInput>;

export const DeviceToken = z
  .object({
    id: Id,
    trackableId: Id,
    name: z.string().nullable().meta({ example: "Anna's iPhone (OwnTracks)" }),
    prefix: z.string().meta({ description: "The token's first characters, to recognise it", example: "fldev3kQ9xZ" }),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable().meta({ description: "When the token last posted (recorded at most once a minute), or null" }),
  })
  .meta({ id: "DeviceToken" });
export type DeviceToken = z.infer<typeof DeviceToken>;

export const CreatedDeviceToken = DeviceToken.extend({
  token: z.string().meta({
    description:
      "The token: shown in this response only. Letters and digits only (190 random bits after the `fldev` prefix), " +
      "so every app accepts it as a device id, password or access token.",
    example: "fldev3kQ9xZb7Lw2Rt8YpN4cVd6Hs1Jm0Ke5Ga",
  }),
}).meta({ id: "CreatedDeviceToken" });
export type CreatedDeviceToken = z.infer<typeof CreatedDeviceToken>;

export const DeviceTokenListQuery = z.object({ limit: limitParam(100, 20), cursor: cursorParam });
export type DeviceTokenListQuery = z.infer<typeof DeviceTokenListQuery>;
export const DeviceTokenPage = pageOf(DeviceToken, "DeviceTokenPage");
