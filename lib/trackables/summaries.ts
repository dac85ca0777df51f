import { asc, desc, eq, inArray } from "drizzle-orm";
import { exec, type Ctx } from "@/lib/context";
import { locations, trackables } from "@/lib/db/schema";

/** A trackable as pickers and context maps need it: its name and where it was last seen. */
export interface TrackableSummary {
  id: string;
  name: string;
  type: string;
  lastPosition: { latitude: number; longitude: number; timestamp: string } | null;
}

/** How many trackables a picker or a context map loads at once. */
export const MAX_SUMMARIES = 2000;

/** Every trackable of the account (by name, capped), each with its newest position (one index probe per trackable). */
export async function listTrackableSummaries({ ctx }: { ctx: Ctx }): Promise<TrackableSummary[]> {
  const rows = await exec(ctx)
    .select({ id: trackables.id, name: trackables.name, type: trackables.type })
    .from(trackables)
    .where(eq(trackables.accountId, ctx.account.id))
    .orderBy(asc(trackables.name), asc(trackables.id))
    .limit(MAX_SUMMARIES);
  if (rows.length === 0) return [];
  const latest = await exec(ctx)
    .selectDistinctOn([locations.trackableId], {
      trackableId: locations.trackableId,
      latitude: locations.latitude,
      longitude: locations.longitude,
      timestamp: locations.timestamp,
    })
    .from(locations)
    .where(inArray(locations.trackableId, rows.map((r) => r.id)))
    .orderBy(locations.trackableId, desc(locations.timestamp), desc(locations.id));
  const byId = new Map(latest.map((l) => [l.trackableId, l]));
  return rows.map((r) => {
    const l = byId.get(r.id);
    return {
      ...r,
      lastPosition: l ? { latitude: l.latitude, longitude: l.longitude, timestamp: l.timestamp.toISOString() } : null,
    };
  });
}
