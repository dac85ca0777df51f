import type { Ctx } from "@/lib/context";
import { listEvents } from "./events";
import type { Event } from "./schemas";

/** The most entries and exits a track shows (of each type). */
export const MAX_TRACK_TRANSITIONS = 500;

export interface Transition {
  id: string;
  type: "geofence.entry" | "geofence.exit";
  geofenceId: string;
  occurredAt: string;
  latitude: number;
  longitude: number;
  reason: Event["reason"];
}

/**
 * A trackable's geofence entries and exits between the inclusive `from`/`to` that have a position (a synthetic exit
 * with no evaluated location has none to mark), oldest first, read through the event log's verb.
 */
export async function readTransitions({ ctx, trackableId, from, to }: { ctx: Ctx; trackableId: string; from?: Date; to?: Date }): Promise<Transition[]> {
  const read = async (type: Transition["type"]) => {
    const out: Event[] = [];
    let cursor: string | undefined;
    do {
      const page = await listEvents({ ctx, query: { trackableId, type, from, to, limit: 100, cursor } });
      out.push(...page.data);
      cursor = page.nextCursor ?? undefined;
    } while (cursor && out.length < MAX_TRACK_TRANSITIONS);
    return out.slice(0, MAX_TRACK_TRANSITIONS);
  };
  const [entries, exits] = await Promise.all([read("geofence.entry"), read("geofence.exit")]);
  return [...entries, ...exits]
    .filter((e) => e.location && e.geofenceId)
    .map((e) => ({
      id: e.id,
      type: e.type as Transition["type"],
      geofenceId: e.geofenceId!,
      occurredAt: e.occurredAt,
      latitude: e.location!.latitude,
      longitude: e.location!.longitude,
      reason: e.reason,
    }))
    .sort((a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.id.localeCompare(b.id));
}
