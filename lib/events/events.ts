import { and, desc, eq, gte, lt, lte, or } from "drizzle-orm";
import { z } from "zod";
import { exec, type AccountRef, type Ctx } from "@/lib/context";
import { insertUnnested } from "@/lib/db/bulk";
import type { Tx } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { events, type EventRow, type NewEventRow } from "@/lib/db/schema";
import { notFound } from "@/lib/http/errors";
import { decodeCursor, paginate } from "@/lib/http/pagination";
import { fanOut, type Endpoint, type OutgoingEvent } from "@/lib/webhooks/fan-out";
import type { Event, EventListQuery } from "./schemas";

/** Something that happened: its record (null for location.updated, which is not recorded) and what is delivered. */
export interface Happening {
  record: Omit<NewEventRow, "id" | "accountId" | "createdAt"> | null;
  outgoing: OutgoingEvent | null;
}

/**
 * Records the events in the caller's transaction (on every plan), then makes their deliveries from the records: each
 * delivery carries its event's id. Returns the number of deliveries started.
 */
export async function recordAndDeliver(
  tx: Tx,
  account: AccountRef,
  happenings: readonly Happening[],
  /** The account's enabled endpoints when the caller has read them already (fanOut reads them otherwise). */
  endpoints?: Endpoint[],
): Promise<number> {
  const rows: NewEventRow[] = [];
  const outgoing: OutgoingEvent[] = [];
  for (const h of happenings) {
    const eventId = h.record ? newId() : undefined;
    if (h.record) rows.push({ ...h.record, id: eventId, accountId: account.id });
    if (h.outgoing) outgoing.push({ ...h.outgoing, eventId });
  }
  // Issued together: the events' insert goes out first, the deliveries that reference them behind it.
  const [, deliveries] = await Promise.all([insertUnnested(tx, events, rows), fanOut(tx, account, outgoing, endpoints)]);
  return deliveries;
}

export function serializeEvent(row: EventRow): Event {
  return {
    id: row.id,
    type: row.type,
    trackableId: row.trackableId,
    geofenceId: row.geofenceId,
    occurredAt: row.occurredAt.toISOString(),
    location: row.location,
    reason: row.reason,
    durationSeconds: row.durationSeconds,
    confidence: row.confidence,
    createdAt: row.createdAt.toISOString(),
  };
}

const EventCursor = z.object({ occurredAt: z.iso.datetime({ precision: 3 }), id: z.uuid() });

/** The account's events, newest first by (occurredAt, id), filtered. Filters that match nothing give an empty page. */
export async function listEvents({ ctx, query }: { ctx: Ctx; query: EventListQuery }) {
  const after = query.cursor ? decodeCursor(query.cursor, EventCursor) : null;
  const afterAt = after ? new Date(after.occurredAt) : null;
  const rows = await exec(ctx)
    .select()
    .from(events)
    .where(
      and(
        eq(events.accountId, ctx.account.id),
        query.trackableId ? eq(events.trackableId, query.trackableId) : undefined,
        query.geofenceId ? eq(events.geofenceId, query.geofenceId) : undefined,
        query.type ? eq(events.type, query.type) : undefined,
        query.from ? gte(events.occurredAt, query.from) : undefined,
        query.to ? lte(events.occurredAt, query.to) : undefined,
        after && afterAt ? or(lt(events.occurredAt, afterAt), and(eq(events.occurredAt, afterAt), lt(events.id, after.id))) : undefined,
      ),
    )
    .orderBy(desc(events.occurredAt), desc(events.id))
    .limit(query.limit + 1);
  const { page, nextCursor } = paginate(rows, query.limit, (r) => ({ occurredAt: r.occurredAt.toISOString(), id: r.id }));
  return { data: page.map(serializeEvent), nextCursor };
}

export async function getEvent({ ctx, id }: { ctx: Ctx; id: string }): Promise<Event> {
  const [row] = await exec(ctx)
    .select()
    .from(events)
    .where(and(eq(events.id, id), eq(events.accountId, ctx.account.id)))
    .limit(1);
  if (!row) throw notFound("Event", id);
  return serializeEvent(row);
}

/** Whole seconds between two instants (never negative). */
export const wholeSeconds = (from: Date, to: Date): number => Math.max(0, Math.floor((to.getTime() - from.getTime()) / 1000));

