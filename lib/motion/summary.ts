import { and, eq, gte, isNull, lt, or } from "drizzle-orm";
import { exec, type Ctx } from "@/lib/context";
import { stops } from "@/lib/db/schema";
import { requireTrackable } from "@/lib/trackables/trackables";
import { localDays } from "./days";
import type { Summary, SummaryQuery } from "./schemas";
import { tripsBetween } from "./trips";

/** Milliseconds of [a0, a1) inside [b0, b1). */
const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/** What the summary reads of a stored trip and stop. */
export interface SummaryTrip {
  startedAt: Date;
  endedAt: Date | null;
  lastFixAt: Date;
  distance: number;
  maxSpeed: number;
}
export interface SummaryStop {
  startedAt: Date;
  duration: number;
}

/**
 * Per local day of the zone within [from, to): distance, time moving and stopped, trips started and the top speed,
 * from the stored trips and stops (an open one counts to its newest fix, or for a stop to its last fix).
 */
export async function summarize({ ctx, query }: { ctx: Ctx; query: SummaryQuery }): Promise<Summary> {
  await requireTrackable(ctx, query.trackableId);
  const [trips, stopRows] = await Promise.all([
    tripsBetween(ctx, query.trackableId, query.from, query.to),
    exec(ctx)
      .select()
      .from(stops)
      .where(and(eq(stops.accountId, ctx.account.id), eq(stops.trackableId, query.trackableId), lt(stops.startedAt, query.to), or(isNull(stops.endedAt), gte(stops.endedAt, query.from)))),
  ]);
  return { days: dailySummary(trips, stopRows, query.from.getTime(), query.to.getTime(), query.timeZone) };
}

/**
 * The local days of the zone that overlap [from, to), each clipped to the range: a trip's moving time and distance go
 * to each day by the share of its time in it (a trip over midnight is split there, its distance pro rata), a stop's
 * time likewise; a trip counts, with its top speed, on the day it starts, and its top speed also on each day it runs in.
 */
export function dailySummary(trips: readonly SummaryTrip[], stopRows: readonly SummaryStop[], from: number, to: number, zone: string): Summary["days"] {
  return localDays(from, to, zone).map((day) => {
    const d0 = Math.max(day.start, from);
    const d1 = Math.min(day.end, to);
    let distance = 0;
    let moving = 0;
    let maxSpeed = 0;
    let tripCount = 0;
    for (const t of trips) {
      const t0 = t.startedAt.getTime();
      const t1 = (t.endedAt ?? t.lastFixAt).getTime();
      const inside = overlap(t0, t1, d0, d1);
      if (t0 >= d0 && t0 < d1) tripCount++;
      if (inside === 0 && !(t0 >= d0 && t0 < d1)) continue;
      moving += inside;
      distance += t1 > t0 ? (t.distance * inside) / (t1 - t0) : t0 >= d0 && t0 < d1 ? t.distance : 0;
      maxSpeed = Math.max(maxSpeed, t.maxSpeed);
    }
    let stopped = 0;
    for (const s of stopRows) stopped += overlap(s.startedAt.getTime(), s.startedAt.getTime() + s.duration * 1000, d0, d1);
    return { date: day.date, distance, movingSeconds: moving / 1000, stoppedSeconds: stopped / 1000, tripCount, maxSpeed };
  });
}
