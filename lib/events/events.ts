import { and, desc, eq, gte, lte } from "drizzle-orm";
import { z } from "zod";
import { exec, type Ctx } from "@/lib/context";
import { events, type EventRow } from "@/lib/db/schema";
import { notFound } from "@/lib/http/errors";
import { decodeCursor, paginate, olderThan } from "@/lib/http/pagination";
import type { Event, EventListQuery } from "./schemas";

/** device.status_changed: the change its payload carried (null on one recorded before payloads were kept). */
function statusOf(row: EventRow): Event["status"] {
  const status = row.payload?.status as Event["status"] | undefined;
  return status ? { previous: status.previous, current: status.current } : null;
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
    tripId: row.tripId,
    ...(row.type === "device.status_changed" && { status: statusOf(row) }),
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
        after && afterAt ? olderThan(events.occurredAt, events.id, afterAt, after.id) : undefined,
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

