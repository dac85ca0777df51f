import { and, eq, inArray } from "drizzle-orm";
import { exec, type Ctx } from "@/lib/context";
import { trackables } from "@/lib/db/schema";
import { ApiError } from "@/lib/http/errors";

// The check of a body's trackableIds (geofence assignments, privacy zones): every listed id must be one of the
// account's trackables, each offender named by its index.

/**
 * The entries of `ids` that are not trackables of this account, as `trackableIds[i]: no such trackable`. The found
 * rows are locked (FOR KEY SHARE, what the foreign key would take) so none can be deleted before the assignment is
 * written in the same transaction.
 */
export async function unknownTrackables(ctx: Ctx, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await exec(ctx)
    .select({ id: trackables.id })
    .from(trackables)
    .where(and(eq(trackables.accountId, ctx.account.id), inArray(trackables.id, ids)))
    .for("key share");
  const known = new Set(found.map((r) => r.id));
  return ids.flatMap((id, i) => (known.has(id) ? [] : [`trackableIds[${i}]: no such trackable`]));
}

const MAX_NAMED = 20;

export function invalidBody(problems: string[]): ApiError {
  const named = problems.slice(0, MAX_NAMED);
  const more = problems.length > MAX_NAMED ? ` (and ${problems.length - MAX_NAMED} more)` : "";
  return new ApiError("invalid_request", `Invalid body: ${named.join("; ")}${more}`);
}
