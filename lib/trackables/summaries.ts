import { asc, eq, sql } from "drizzle-orm";
import { exec, type Ctx } from "@/lib/context";
import { trackables } from "@/lib/db/schema";
import { lastLocationLateral } from "./trackables";

/** A trackable as pickers and context maps need it: its name and where it was last seen. */
export interface TrackableSummary {
  id: string;
  name: string;
  type: string;
  lastPosition: { latitude: number; longitude: number; timestamp: string } | null;
}

/** How many trackables a picker or a context map loads at once. */
export const MAX_SUMMARIES = 2000;

/**
 * Every trackable of the account (by name, capped), each with its newest position: one query, one backward probe of
 * the locations index per trackable (a DISTINCT ON over the trackables' locations would read every location).
 */
export async function listTrackableSummaries({ ctx }: { ctx: Ctx }): Promise<TrackableSummary[]> {
  const last = lastLocationLateral(ctx);
  const rows = await exec(ctx)
    .select({ id: trackables.id, name: trackables.name, type: trackables.type, last: last.columns })
    .from(trackables)
    .leftJoinLateral(last.subquery, sql`true`)
    .where(eq(trackables.accountId, ctx.account.id))
    .orderBy(asc(trackables.name), asc(trackables.id))
    .limit(MAX_SUMMARIES);
  return rows.map(({ last: l, ...r }) => ({
    ...r,
    lastPosition: l ? { latitude: l.latitude, longitude: l.longitude, timestamp: l.timestamp.toISOString() } : null,
  }));
}
