import { and, asc, eq, gt, inArray, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { verifyStreamKey } from "@/lib/api-keys/keys";
import { authSecret } from "@/lib/config/secrets";
import type { Ctx } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { events } from "@/lib/db/schema";
import type { RecordedEventType } from "@/lib/events/registry";
import { allows } from "@/lib/api-keys/scopes";
import { ApiError, insufficientScope } from "@/lib/http/errors";
import { decodeCursor } from "@/lib/http/pagination";
import { frameOfRow, type Frame } from "./bus";
import type { StreamQuery, StreamTokenInput } from "./schemas";
import { createStreamToken, verifyStreamToken } from "./tokens";

/** Stream tokens are signed with the sessions' secret (shared by every server of a scale-out). */
const tokenSecret = authSecret;

/** POST /stream-tokens: a token that opens streams of this key's account for `expiresIn` seconds. */
export function issueStreamToken({ keyId, input }: { keyId: string; input: StreamTokenInput }) {
  const { token, expiresAt } = createStreamToken(tokenSecret(), keyId, input.expiresIn);
  return { token, expiresAt: expiresAt.toISOString() };
}

/** The key and account a stream token opens streams for: 401 when it is invalid, expired or its key revoked. */
export async function authorizeStreamToken(token: string) {
  const keyId = verifyStreamToken(tokenSecret(), token);
  const db = await getDb();
  const verified = keyId ? await verifyStreamKey(db, keyId) : null;
  if (!verified) throw new ApiError("unauthorized", "Invalid stream token: it is malformed, expired, or its API key has been revoked");
  // A token opens what its key may read: a key without events:read gets no stream through a token either.
  if (!allows(verified.scopes, "events:read")) throw insufficientScope("events:read");
  return { keyId: verified.keyId, ctx: { account: verified.account, db } satisfies Ctx };
}

const EventCursor = z.object({ occurredAt: z.iso.datetime({ precision: 3 }), id: z.uuid() });

/** What a frame must match to be sent. */
export interface StreamFilter {
  types: Set<string> | null;
  trackableIds: Set<string> | null;
  geofenceIds: Set<string> | null;
}

export function filterOf(query: StreamQuery): StreamFilter {
  const set = (list: string[] | undefined) => (list && list.length > 0 ? new Set(list) : null);
  return { types: set(query.types), trackableIds: set(query.trackableIds), geofenceIds: set(query.geofenceIds) };
}

export const matches = (f: StreamFilter, frame: Pick<Frame, "type" | "trackableId" | "geofenceId">): boolean =>
  (!f.types || f.types.has(frame.type)) &&
  (!f.trackableIds || f.trackableIds.has(frame.trackableId)) &&
  (!f.geofenceIds || (frame.geofenceId !== null && f.geofenceIds.has(frame.geofenceId)));

/** Whether a stream of this filter can ever send a location.updated frame (which has no geofence). */
export const wantsLocations = (f: StreamFilter): boolean => (!f.types || f.types.has("location.updated")) && !f.geofenceIds;

/**
 * The event id a resume cursor stands for. Events are replayed in the order they were recorded (ids are time-ordered),
 * so a batch that arrives late is replayed too. 400 for a cursor that is not one; 410 when the event it names is gone
 * and older than every event the log still holds (retention deleted it: what followed it may be gone too).
 */
export async function resumePoint({ ctx, cursor }: { ctx: Ctx; cursor: string }): Promise<string> {
  const { id } = decodeCursor(cursor, EventCursor);
  const [found] = await ctx.db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.accountId, ctx.account.id), eq(events.id, id)))
    .limit(1);
  if (found) return id;
  const [oldest] = await ctx.db.select({ id: events.id }).from(events).where(eq(events.accountId, ctx.account.id)).orderBy(asc(events.id)).limit(1);
  if (!oldest || id < oldest.id) {
    throw new ApiError("cursor_expired", "The cursor is older than the events log holds: open the stream without Last-Event-ID and catch up with GET /api/v1/events");
  }
  return id;
}

const REPLAY_PAGE = 500;

/** The recorded events after `afterId` that match, oldest first, a page at a time. */
export async function* replay({ ctx, afterId, filter }: { ctx: Ctx; afterId: string; filter: StreamFilter }): AsyncGenerator<Frame[]> {
  let after = afterId;
  for (;;) {
    const rows = await ctx.db
      .select()
      .from(events)
      .where(
        and(
          eq(events.accountId, ctx.account.id),
          gt(events.id, after),
          isNotNull(events.payload),
          filter.types ? inArray(events.type, [...filter.types] as RecordedEventType[]) : undefined,
          filter.trackableIds ? inArray(events.trackableId, [...filter.trackableIds]) : undefined,
          filter.geofenceIds ? inArray(events.geofenceId, [...filter.geofenceIds]) : undefined,
        ),
      )
      .orderBy(asc(events.id))
      .limit(REPLAY_PAGE);
    if (rows.length === 0) return;
    yield rows.map(frameOfRow).filter((f): f is Frame => f !== null);
    if (rows.length < REPLAY_PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}
