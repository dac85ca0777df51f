import { z } from "zod";
import { cursorParam, limitParam, pageOf } from "@/lib/http/pagination";
import { Location } from "@/lib/locations/schemas";
import { Id, Timestamp, TimestampInput } from "@/lib/schemas/common";

export const MIN_EXPIRES_IN_S = 60;
export const MAX_EXPIRES_IN_S = 30 * 24 * 60 * 60; // 2,592,000: 30 days
export const DEFAULT_EXPIRES_IN_S = 24 * 60 * 60;
export const MAX_NAME_LENGTH = 100;

const EXPIRY_RANGE = `between ${MIN_EXPIRES_IN_S} seconds and 30 days from now`;

/** Why an absolute expiry is refused at `now` (it must fall within the same bounds as expiresIn), or null. */
export function expiresAtProblem(expiresAt: Date, now: number): string | null {
  const inS = (expiresAt.getTime() - now) / 1000;
  if (inS < MIN_EXPIRES_IN_S) return `must be ${EXPIRY_RANGE} (it is ${inS <= 0 ? "in the past" : "too soon"})`;
  if (inS > MAX_EXPIRES_IN_S) return `must be ${EXPIRY_RANGE} (it is more than 30 days away)`;
  return null;
}

const ExpiresIn = z
  .number({ error: `must be an integer between ${MIN_EXPIRES_IN_S} and ${MAX_EXPIRES_IN_S} (seconds)` })
  .int(`must be an integer between ${MIN_EXPIRES_IN_S} and ${MAX_EXPIRES_IN_S} (seconds)`)
  .min(MIN_EXPIRES_IN_S, `must be an integer between ${MIN_EXPIRES_IN_S} and ${MAX_EXPIRES_IN_S} (seconds)`)
  .max(MAX_EXPIRES_IN_S, `must be an integer between ${MIN_EXPIRES_IN_S} and ${MAX_EXPIRES_IN_S} (seconds)`)
  .meta({
    description: `Lifetime in seconds, ${MIN_EXPIRES_IN_S}–${MAX_EXPIRES_IN_S} (30 days); default ${DEFAULT_EXPIRES_IN_S} (24 hours). Not together with expiresAt.`,
    example: 3600,
  });

const ExpiresAt = TimestampInput.superRefine((d, ctx) => {
  const problem = expiresAtProblem(d, Date.now());
  if (problem) ctx.addIssue({ code: "custom", message: problem });
}).meta({
  description: `When the link stops working: an ISO 8601 date-time ${EXPIRY_RANGE}. Not together with expiresIn.`,
  example: "2026-11-23T07:33:55.123Z",
});

export const ShareLink = z
  .object({
    id: Id,
    trackableId: Id,
    name: z.string().nullable().meta({ description: "Your label for the link, or null", example: "For the customer" }),
    url: z.url().meta({
      description:
        "The public page (`APP_URL/share/<token>`) that shows the trackable's live position to anyone who holds the " +
        "URL, without signing in. Its data comes from `GET /api/public/share/<token>`.",
      example: "https://fenceline.example.com/share/3q2-7wEjZ0bDk1m6p1f5Yx2Qn9r8sT4uVwXyZaBcDeF",
    }),
    expiresAt: Timestamp.meta({ description: "When the link stops working" }),
    revokedAt: Timestamp.nullable().meta({ description: "When the link was revoked, or null" }),
    createdAt: Timestamp,
  })
  .meta({ id: "ShareLink" });
export type ShareLink = z.infer<typeof ShareLink>;

const TrackableIdInput = z.uuid({ error: "must be a trackable id (UUID)" }).overwrite((s) => s.toLowerCase());

export const CreateShareLinkInput = z
  .strictObject({
    trackableId: TrackableIdInput.meta({
      description: "The trackable to share (one of this account's; 404 otherwise)",
      example: "01936f4e-5c2a-7b3e-9a41-2f0c8d6e1a55",
    }),
    name: z
      .string()
      .trim()
      .min(1, `must be 1–${MAX_NAME_LENGTH} characters`)
      .max(MAX_NAME_LENGTH, `must be 1–${MAX_NAME_LENGTH} characters`)
      .nullable()
      .optional()
      .meta({ description: `Optional label, 1–${MAX_NAME_LENGTH} characters (trimmed)`, example: "For the customer" }),
    expiresIn: ExpiresIn.optional(),
    expiresAt: ExpiresAt.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.expiresIn !== undefined && input.expiresAt !== undefined) {
      ctx.addIssue({ code: "custom", path: ["expiresAt"], message: "give either expiresIn or expiresAt, not both" });
    }
  })
  .meta({ id: "CreateShareLinkInput" });
export type CreateShareLinkInput = z.infer<typeof CreateShareLinkInput>;

export const ShareLinkListQuery = z.object({
  limit: limitParam(100, 20),
  cursor: cursorParam,
  trackableId: TrackableIdInput.optional().meta({ description: "Only the links of this trackable" }),
  active: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .transform((v) => v === "true")
    .optional()
    .meta({ description: "true: only links that still work (neither expired nor revoked); false: only the others" }),
});
export type ShareLinkListQuery = z.infer<typeof ShareLinkListQuery>;

export const ShareLinkPage = pageOf(ShareLink, "ShareLinkPage");

/** What the public endpoint reveals of a location: the measures, no ids. */
export const PublicLocation = Location.omit({ id: true, trackableId: true }).meta({ id: "PublicLocation" });
export type PublicLocation = z.infer<typeof PublicLocation>;

/** GET /api/public/share/<token>: the holder of the token sees this and nothing else (no ids beyond the token). */
export const PublicShare = z
  .object({
    trackable: z.object({ name: z.string(), type: z.string() }),
    location: PublicLocation.nullable().meta({ description: "The most recent location, or null when there is none yet" }),
    expiresAt: Timestamp,
  })
  .meta({ id: "PublicShare" });
export type PublicShare = z.infer<typeof PublicShare>;
