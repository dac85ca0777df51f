import { z } from "zod";
import { BeaconSchema, defineEvent, GeofenceRefSchema, LocationRefSchema, OccurredAt } from "../declaration";
import { geofenceDwellPayload, geofenceEventPayload } from "../payloads";

/** Only on synthetic transitions (a change to the geofence or trackable, not a crossing): why the trackable moved. */
const SyntheticReason = z.enum(["geofence_deleted", "unassigned", "trackable_deleted", "geofence_changed"]).optional().meta({
  description:
    "Present only on a synthetic transition, made at the moment of a change instead of by a location: the geofence was " +
    "deleted, the trackable unassigned or deleted, or the geofence reshaped. occurred_at is then the time of the change " +
    "and location the last evaluated one. Real crossings carry exactly the five fields above.",
});

const crossing = <E extends "geofence.entry" | "geofence.exit">(event: E, id: string, description: string) =>
  z
    .object({ event: z.literal(event), occurred_at: OccurredAt, geofence: GeofenceRefSchema, beacon: BeaconSchema, location: LocationRefSchema, reason: SyntheticReason })
    .meta({ id, description });

export const geofenceEntry = defineEvent({
  type: "geofence.entry",
  label: "Entered a geofence",
  description: "A trackable entered a geofence",
  recorded: true,
  deliveredOn: ["enterprise"],
  payload: crossing("geofence.entry", "GeofenceEntryEvent", "The trackable entered the geofence"),
  sample: (s) => geofenceEventPayload("geofence.entry", s.geofence, s.beacon, s.location),
});

export const geofenceExit = defineEvent({
  type: "geofence.exit",
  label: "Left a geofence",
  description: "A trackable left a geofence",
  recorded: true,
  deliveredOn: ["enterprise"],
  payload: crossing("geofence.exit", "GeofenceExitEvent", "The trackable left the geofence"),
  sample: (s) => geofenceEventPayload("geofence.exit", s.geofence, s.beacon, s.location),
});

export const geofenceDwell = defineEvent({
  type: "geofence.dwell",
  label: "Dwelling in a geofence",
  description: "A trackable stayed inside a geofence for its dwell time (once per visit)",
  recorded: true,
  deliveredOn: ["enterprise"],
  payload: z
    .object({
      event: z.literal("geofence.dwell"),
      occurred_at: OccurredAt,
      geofence: GeofenceRefSchema,
      beacon: BeaconSchema,
      location: LocationRefSchema,
      dwell: z.object({ seconds: z.number().int().meta({ description: "Whole seconds inside at that point" }) }),
    })
    .meta({
      id: "GeofenceDwellEvent",
      description: "The trackable has been inside the geofence for its dwellSeconds (once per visit), by the first point that long after the entry",
    }),
  sample: (s) => geofenceDwellPayload(s.geofence, s.beacon, s.location, 600),
});
