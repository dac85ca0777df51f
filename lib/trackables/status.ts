import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { env } from "@/lib/config/env";
import { exec, type Ctx } from "@/lib/context";
import { trackableStates, trackables } from "@/lib/db/schema";
import type { Location } from "@/lib/locations/schemas";
import { serializeLocation } from "@/lib/locations/serialize";
import { lastLocationLateral } from "./trackables";

/** online/offline as device.status_changed reports it; "never" before the first location. */
export type DeviceStatus = "online" | "offline" | "never";

export interface TrackableStatus {
  status: DeviceStatus;
  /** Server time the newest location was received (device clocks are not trusted for status), or null. */
  lastSeenAt: Date | null;
}

/**
 * The status the events engine holds for a trackable, read at `now`. The engine marks a device online when it
 * evaluates a location and the offline sweep marks it offline up to 25% after DEVICE_OFFLINE_AFTER_S; reading
 * applies the cut-off exactly, and counts a location whose evaluation is still queued as the "online" it will cause.
 */
export function deviceStatus(input: {
  stateStatus: "online" | "offline" | null;
  stateSeenAt: Date | null;
  lastReceivedAt: Date | null;
  now: Date;
  offlineAfterS: number;
}): TrackableStatus {
  const { stateStatus, stateSeenAt, lastReceivedAt } = input;
  const lastSeenAt =
    stateSeenAt && lastReceivedAt ? (stateSeenAt > lastReceivedAt ? stateSeenAt : lastReceivedAt) : (stateSeenAt ?? lastReceivedAt);
  if (!lastSeenAt) return { status: "never", lastSeenAt: null };
  if (lastSeenAt.getTime() < input.now.getTime() - input.offlineAfterS * 1000) return { status: "offline", lastSeenAt };
  if (stateStatus === "online") return { status: "online", lastSeenAt };
  const pending = lastReceivedAt !== null && (stateSeenAt === null || lastReceivedAt > stateSeenAt);
  return { status: pending ? "online" : "offline", lastSeenAt };
}

/** Statuses of the given trackables of ctx's account (their lastLocation as the API serializes it), by id. */
export async function getTrackableStatuses({
  ctx,
  trackables: list,
  now = new Date(),
}: {
  ctx: Ctx;
  trackables: ReadonlyArray<{ id: string; lastLocation: Location | null }>;
  now?: Date;
}): Promise<Map<string, TrackableStatus>> {
  const ids = list.map((t) => t.id);
  const states =
    ids.length === 0
      ? []
      : await exec(ctx)
          .select({ trackableId: trackableStates.trackableId, status: trackableStates.status, lastSeenAt: trackableStates.lastSeenAt })
          .from(trackableStates)
          .where(and(eq(trackableStates.accountId, ctx.account.id), inArray(trackableStates.trackableId, ids)));
  const byId = new Map(states.map((s) => [s.trackableId, s]));
  const offlineAfterS = env().DEVICE_OFFLINE_AFTER_S;
  return new Map(
    list.map((t) => {
      const s = byId.get(t.id);
      const status = deviceStatus({
        stateStatus: s?.status ?? null,
        stateSeenAt: s?.lastSeenAt ?? null,
        lastReceivedAt: t.lastLocation ? new Date(t.lastLocation.receivedAt) : null,
        now,
        offlineAfterS,
      });
      return [t.id, status];
    }),
  );
}

export interface TrackablePosition {
  id: string;
  name: string;
  type: string;
  location: Location;
  status: DeviceStatus;
  lastSeenAt: string;
}

/**
 * The latest position of every trackable of the account that has one (the fleet map), newest trackables first,
 * at most `limit`; `truncated` says there are more.
 */
export async function listTrackablePositions({
  ctx,
  limit = 1000,
  now = new Date(),
}: {
  ctx: Ctx;
  limit?: number;
  now?: Date;
}): Promise<{ data: TrackablePosition[]; truncated: boolean }> {
  const last = lastLocationLateral(ctx);
  const rows = await exec(ctx)
    .select({
      id: trackables.id,
      name: trackables.name,
      type: trackables.type,
      last: last.columns,
      stateStatus: trackableStates.status,
      stateSeenAt: trackableStates.lastSeenAt,
    })
    .from(trackables)
    .innerJoinLateral(last.subquery, sql`true`)
    .leftJoin(trackableStates, eq(trackableStates.trackableId, trackables.id))
    .where(eq(trackables.accountId, ctx.account.id))
    .orderBy(desc(trackables.id))
    .limit(limit + 1);
  const offlineAfterS = env().DEVICE_OFFLINE_AFTER_S;
  const data = rows.slice(0, limit).map((r) => {
    const location = serializeLocation(r.last);
    const s = deviceStatus({ stateStatus: r.stateStatus, stateSeenAt: r.stateSeenAt, lastReceivedAt: r.last.receivedAt, now, offlineAfterS });
    return { id: r.id, name: r.name, type: r.type, location, status: s.status, lastSeenAt: (s.lastSeenAt ?? r.last.receivedAt).toISOString() };
  });
  return { data, truncated: rows.length > limit };
}
