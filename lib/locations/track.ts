import type { Ctx } from "@/lib/context";
import { listLocations } from "./locations";
import type { Location } from "./schemas";

// Pages of the history verb larger than the API allows a client: a long track is read in 10 round trips, not 100.
const TRACK_PAGE = 10_000;

/**
 * The most points a dashboard track reads: older points in the range are left out and the page says so (the download
 * holds up to 100,000). The map draws them simplified (lib/locations/simplify.ts). Not the export's 100,000:
 * a live page re-reads its track on every change, and 100,000 points took 7.5 s a render on a loaded 2-core machine.
 */
export const MAX_TRACK_POINTS = 20_000;

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
