import { z } from "zod";
import { Trip } from "@/lib/motion/schemas";
import { sampleTrip, tripPayload } from "@/lib/motion/payloads";
import { BeaconSchema, defineEvent, OccurredAt } from "../declaration";

const tripEvent = <E extends "trip.started" | "trip.ended">(event: E, id: string, description: string) =>
  z.object({ event: z.literal(event), occurred_at: OccurredAt, beacon: BeaconSchema, trip: Trip }).meta({ id, description });

export const tripStarted = defineEvent({
  type: "trip.started",
  label: "Trip started",
  description: "A trackable started moving (once per trip)",
  recorded: true,
  deliveredOn: ["enterprise"],
  payload: tripEvent("trip.started", "TripStartedEvent", "A trip began: occurred_at is its startedAt (the stop's last fix)"),
  sample: (s) => tripPayload("trip.started", s.beacon, s.location.timestamp, sampleTrip(s.beacon, s.location, false)),
});

export const tripEnded = defineEvent({
  type: "trip.ended",
  label: "Trip ended",
  description: "A trackable stopped, or sent nothing for stopGap seconds (once per trip)",
  recorded: true,
  deliveredOn: ["enterprise"],
  payload: tripEvent("trip.ended", "TripEndedEvent", "A trip ended: occurred_at is its endedAt"),
  sample: (s) => {
    const trip = sampleTrip(s.beacon, s.location, true);
    return tripPayload("trip.ended", s.beacon, trip.endedAt!, trip);
  },
});
