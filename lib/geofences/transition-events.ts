import type { ProducedEvent } from "@/lib/events/produced";
import { geofenceDwellPayload, geofenceEventPayload, locationOf, type BeaconPayload } from "@/lib/events/payloads";
import { wholeSeconds } from "@/lib/events/time";
import type { FenceCandidate } from "./candidates";
import { confidenceOf, type Fix, type Transition } from "./evaluation";
import type { PreviousSecret } from "./fence-cache";

/**
 * The event of a transition that a point made: geofence.entry, .exit or .dwell, carrying the time and place of the
 * point that decided it (for a debounced crossing, the first point on the new side).
 */
export function transitionEvent(
  beacon: BeaconPayload,
  tr: Transition<Fix & { accuracy: number | null }>,
  g: FenceCandidate,
  previousSecret: PreviousSecret,
): ProducedEvent {
  const type = `geofence.${tr.kind}` as const;
  const dated = tr.at ?? tr.point;
  const where = locationOf({ ...dated, accuracy: dated.accuracy ?? null });
  const dwell = tr.kind === "dwell";
  return {
    type,
    trackableId: beacon.id,
    geofenceId: g.id,
    occurredAt: dated.timestamp,
    location: where,
    reason: dwell ? "dwell" : "crossing",
    durationSeconds: dwell ? tr.dwellSeconds! : tr.kind === "exit" && tr.since ? wholeSeconds(tr.since, dated.timestamp) : null,
    confidence: dwell ? null : confidenceOf(tr.kind as "entry" | "exit", g, dated),
    payload: dwell ? geofenceDwellPayload(g, beacon, where, tr.dwellSeconds!) : geofenceEventPayload(type as "geofence.entry" | "geofence.exit", g, beacon, where),
    // Only a fence with its own webhook needs its secrets carried along.
    geofence: g.notificationType === "webhook" && g.webhookUrl ? { ...g, previousSecret } : g,
  };
}
