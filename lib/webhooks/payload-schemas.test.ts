import { z } from "zod";
import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENTS } from "@/lib/db/schema/webhooks";
import { WEBHOOK_PAYLOADS } from "./payload-schemas";
import { batteryLowPayload, geofenceDwellPayload, geofenceEventPayload, locationUpdatedPayload, statusChangedPayload } from "@/lib/events/payloads";

const beacon = { id: "00000000-0000-4000-8000-000000000000", name: "Van", type: "vehicle" };
const geofence = { id: "00000000-0000-4000-8000-000000000001", name: "Depot", latitude: 52.5, longitude: 13.4, radius: 100 };
const location = { latitude: 52.5, longitude: 13.4, accuracy: null, timestamp: "2026-11-22T07:33:55.123Z" };

describe("webhook payload schemas (the OpenAPI webhooks section)", () => {
  it("describe every event kind", () => {
    expect(Object.keys(WEBHOOK_PAYLOADS).sort()).toEqual([...WEBHOOK_EVENTS].sort());
  });

  it("accept exactly what the payload builders send, with no field left undescribed", () => {
    const built = {
      "geofence.entry": geofenceEventPayload("geofence.entry", geofence, beacon, location),
      "geofence.exit": geofenceEventPayload("geofence.exit", geofence, beacon, location),
      "geofence.dwell": geofenceDwellPayload(geofence, beacon, location, 600),
      "location.updated": locationUpdatedPayload(beacon, location),
      "battery.low": batteryLowPayload(beacon, location, 15, 20),
      "device.status_changed": statusChangedPayload(beacon, new Date(location.timestamp), "offline", "online"),
    };
    for (const [event, payload] of Object.entries(built)) {
      const schema = WEBHOOK_PAYLOADS[event as keyof typeof WEBHOOK_PAYLOADS];
      // Strict at every level: a field the builder adds and the schema lacks fails here.
      const strict = JSON.parse(JSON.stringify(z.toJSONSchema(schema)), (_k, v) => (v && v.type === "object" ? { ...v, additionalProperties: false } : v));
      expect(schema.parse(payload), event).toEqual(payload);
      expect(z.fromJSONSchema(strict).safeParse(payload).success, event).toBe(true);
      expect(Object.keys(payload), event).toEqual(Object.keys(schema.shape).filter((k) => k !== "reason"));
    }
  });

  it("describe a synthetic transition's reason, and refuse an unknown one", () => {
    const synthetic = { ...geofenceEventPayload("geofence.exit", geofence, beacon, location), reason: "geofence_deleted" };
    expect(WEBHOOK_PAYLOADS["geofence.exit"].parse(synthetic)).toEqual(synthetic);
    expect(WEBHOOK_PAYLOADS["geofence.entry"].safeParse({ ...synthetic, event: "geofence.entry", reason: "crossing" }).success).toBe(false);
  });
});
