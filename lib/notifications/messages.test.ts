import { describe, expect, it } from "vitest";
import { EVENTS } from "@/lib/events/registry";
import { buildMessage, unknownPlaceholders, type MessageInput } from "./messages";

const entry: MessageInput = {
  type: "geofence.entry",
  trackableId: "0193a0b0-0000-7000-8000-000000000001",
  trackableName: "Van 12",
  geofenceName: "Depot",
  occurredAt: new Date("2026-07-01T12:03:30Z"),
  location: { latitude: 52.52, longitude: 13.405 },
  durationSeconds: null,
  payload: null,
};
const APP = "https://fleet.example.com/";

describe("buildMessage", () => {
  it("says what happened with names and the local time of the rule's zone", () => {
    expect(buildMessage(entry, { timeZone: "Europe/Berlin", template: null }, APP)).toEqual({
      title: "Van 12 entered Depot",
      body: `at 14:03 (Europe/Berlin) · 52.52000, 13.40500 · https://fleet.example.com/trackables/${entry.trackableId}`,
      link: `https://fleet.example.com/trackables/${entry.trackableId}`,
      tags: ["geofence.entry"],
    });
  });

  it("words each type", () => {
    const title = (m: Partial<MessageInput>) => buildMessage({ ...entry, ...m }, { timeZone: "UTC", template: null }, APP).title;
    expect(title({ type: "geofence.exit" })).toBe("Van 12 left Depot");
    expect(title({ type: "geofence.dwell", durationSeconds: 600 })).toBe("Van 12 has been in Depot for 10 min");
    expect(title({ type: "battery.low", geofenceName: null, payload: { battery: { level: 14.6, threshold: 20 } } })).toBe("Van 12's battery is low (15%)");
    expect(title({ type: "trip.started", geofenceName: null })).toBe("Van 12 started a trip");
    expect(title({ type: "trip.ended", geofenceName: null, payload: { trip: { distance: 4230.5 } } })).toBe("Van 12 ended a trip of 4.2 km");
    expect(title({ type: "speed.exceeded", geofenceName: null, payload: { speed: { value: 25, limit: 13.89, geofenceId: null } } })).toBe(
      "Van 12 is over the speed limit: 90 km/h where 50 km/h is allowed",
    );
    // Every recorded type of the registry has a sentence of its own, not the fallback.
    for (const type of EVENTS.recorded) expect(title({ type }), type).not.toContain(`: ${type}`);
    expect(title({ type: "device.status_changed", payload: { status: { previous: "online", current: "offline" } } })).toBe("Van 12 went offline");
    expect(title({ type: "device.status_changed", payload: { status: { previous: "offline", current: "online" } } })).toBe("Van 12 is back online");
  });

  it("renders a template's placeholders, keeping the default for a part it leaves out", () => {
    const m = buildMessage(entry, { timeZone: "America/New_York", template: { title: "{{ trackable.name }} @ {{geofence.name}} ({{event.type}})" } }, APP);
    expect(m.title).toBe("Van 12 @ Depot (geofence.entry)");
    expect(m.body).toMatch(/^at 08:03 \(America\/New_York\)/);
    const body = buildMessage(entry, { timeZone: "UTC", template: { body: "{{time}} {{location.latitude}},{{location.longitude}} {{link}} [{{speed.value}}]" } }, APP).body;
    expect(body).toBe(`12:03 (UTC) 52.52000,13.40500 https://fleet.example.com/trackables/${entry.trackableId} []`);
  });
});

describe("unknownPlaceholders", () => {
  it("names the placeholders that are not documented", () => {
    expect(unknownPlaceholders("{{trackable.name}} {{ driver }} {{time}} {{geofence.id}}")).toEqual(["driver", "geofence.id"]);
    expect(unknownPlaceholders("plain text, {single} braces")).toEqual([]);
  });
});
