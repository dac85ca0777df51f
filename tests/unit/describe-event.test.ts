import { describe, expect, it } from "vitest";
import { describeEvent, describeFenceEvent } from "@/components/events/describe-event";
import { EVENT_TYPE_LABELS } from "@/components/events/event-filters";
import type { Event } from "@/lib/events/schemas";

const base: Event = {
  id: "00000000-0000-4000-8000-000000000010",
  type: "device.status_changed",
  trackableId: "00000000-0000-4000-8000-000000000011",
  geofenceId: null,
  occurredAt: "2026-11-25T10:00:00.000Z",
  location: null,
  reason: null,
  durationSeconds: null,
  confidence: null,
  tripId: null,
  status: null,
  createdAt: "2026-11-25T10:00:00.000Z",
};

describe("how the dashboard words a device.status_changed", () => {
  it("says which way the status went, from the recorded change", () => {
    expect(describeEvent({ ...base, status: { previous: "offline", current: "online" } }, new Map())).toMatchObject({ label: "Came online", detail: "(was offline)" });
    expect(describeEvent({ ...base, status: { previous: "online", current: "offline" } }, new Map())).toMatchObject({ label: "Went offline", detail: "" });
    expect(describeFenceEvent({ ...base, status: { previous: "offline", current: "online" } })).toMatchObject({ label: "Came online", detail: " (was offline)" });
  });

  it("falls back to either way for a change recorded before the change was kept", () => {
    expect(describeEvent(base, new Map())).toMatchObject({ label: "Status", detail: "came online or went offline" });
  });

  it("labels every recorded type in the events page's type filter", () => {
    expect(Object.keys(EVENT_TYPE_LABELS)).toEqual(["geofence.entry", "geofence.exit", "geofence.dwell", "battery.low", "device.status_changed", "trip.started", "trip.ended", "speed.exceeded"]);
    expect(EVENT_TYPE_LABELS["device.status_changed"]).toBe("Came online / went offline");
  });
});
