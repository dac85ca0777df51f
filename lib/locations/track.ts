import type { Ctx } from "@/lib/context";
import { listLocations } from "./locations";
import { MAX_EXPORT_POINTS, type Location } from "./schemas";

// Pages of the history verb larger than the API allows a client: a long track is read in 10 round trips, not 100.
const TRACK_PAGE = 10_000;

/**
 * The most points a dashboard track reads (as many as an export holds); older points in the range are left out and
 * the page says so. The map draws them simplified (lib/locations/simplify.ts).
 */
export const MAX_TRACK_POINTS = MAX_EXPORT_POINTS;

/**
 * A trackable's track between the inclusive `from`/`to`: the newest `max` points of the range, read page by page
 * through the history verb the API uses (so tenancy and limits are the same), returned oldest first for drawing.
 * `truncated` is true when older points in the range were left out.
 */
export async function readTrack({
  ctx,
  trackableId,
  from,
  to,
  max = MAX_TRACK_POINTS,
}: {
  ctx: Ctx;
  trackableId: string;
  from?: Date;
  to?: Date;
  max?: number;
}): Promise<{ points: Location[]; truncated: boolean }> {
  const newestFirst: Location[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await listLocations({
      ctx,
      trackableId,
      query: { from, to, limit: Math.min(TRACK_PAGE, max - newestFirst.length), cursor, order: "desc" },
    });
    newestFirst.push(...page.data);
    if (!page.nextCursor) return { points: newestFirst.reverse(), truncated: false };
    if (newestFirst.length >= max) return { points: newestFirst.reverse(), truncated: true };
    cursor = page.nextCursor;
  }
}
