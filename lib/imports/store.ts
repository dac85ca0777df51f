import type { Ctx } from "@/lib/context";
import { importLocations } from "@/lib/locations/locations";
import { publishNotice } from "@/lib/stream/bus";
import type { Fix } from "./formats/types";

/**
 * Stores one parsed batch of an import's fixes (at most MAX_BATCH): the one place every imported fix passes on its
 * way to the database, so a filter on what is stored belongs here. How many were stored (resends are dropped).
 */
export async function storeImportBatch(ctx: Ctx, trackableId: string, fixes: Fix[], opts: { evaluate: boolean }): Promise<number> {
  const stored = await importLocations({ ctx, trackableId, fixes, evaluate: opts.evaluate });
  // The trackable's live pages show its newest points and history: they refresh as batches land.
  if (stored > 0) publishNotice(ctx.account.id, "trackable", trackableId);
  return stored;
}
