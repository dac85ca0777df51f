import { z } from "zod";
import { describe, expect, it } from "vitest";
import { webhookOperations } from "@/lib/openapi/document";
import { SAMPLE_BEACON, SAMPLE_GEOFENCE } from "@/lib/webhooks/test-webhook";
import { streamQuery } from "@/lib/stream/schemas";
import { subscriptionEvents } from "@/lib/webhooks/schemas";
import { BeaconSchema, defineEvent, OccurredAt } from "./declaration";
import { listEventTypes } from "./event-types";
import { buildRegistry, EVENTS, recordedTypeOptions, samplePayload } from "./registry";

// An event type is declared once; everything else derives from the registry. A throw-away type added to a registry,
// and to nothing else, must show up in every derived place.

const parts = { beacon: SAMPLE_BEACON, geofence: SAMPLE_GEOFENCE, location: { latitude: 52.52, longitude: 13.405, accuracy: 5, timestamp: "2026-11-25T10:00:00.000Z" } };

const kettleBoiled = defineEvent({
  type: "kettle.boiled",
  label: "Kettle boiled",
  description: "The trackable's kettle boiled",
  recorded: true,
  deliveredOn: ["enterprise"],
  payload: z
    .object({ event: z.literal("kettle.boiled"), occurred_at: OccurredAt, beacon: BeaconSchema, litres: z.number() })
    .meta({ id: "KettleBoiledEvent", description: "Tea time" }),
  sample: (s) => ({ event: "kettle.boiled" as const, occurred_at: s.location.timestamp, beacon: s.beacon, litres: 1.5 }),
});

describe("the event registry", () => {
  const registry = buildRegistry([...EVENTS.declarations, kettleBoiled]);

  it("a type declared once is found in every derived place", () => {
    expect(subscriptionEvents(registry).parse(["kettle.boiled", "geofence.entry"])).toEqual(["kettle.boiled", "geofence.entry"]);
    expect(subscriptionEvents(EVENTS).safeParse(["kettle.boiled"]).success).toBe(false);

    const operations = webhookOperations(registry) as Record<string, { post: { summary: string; requestBody: { content: Record<string, { schema: unknown }> } } }>;
    expect(operations["kettle.boiled"]!.post.summary).toBe("The trackable's kettle boiled");
    expect(operations["kettle.boiled"]!.post.requestBody.content["application/json"]!.schema).toBe(kettleBoiled.payload);
    expect(Object.keys(webhookOperations())).not.toContain("kettle.boiled");

    expect(listEventTypes(registry).data.at(-1)).toEqual({ type: "kettle.boiled", label: "Kettle boiled", description: "The trackable's kettle boiled", recorded: true });
    expect(samplePayload("kettle.boiled", parts, registry)).toEqual({ event: "kettle.boiled", occurred_at: parts.location.timestamp, beacon: SAMPLE_BEACON, litres: 1.5 });
    expect(recordedTypeOptions(registry)).toContainEqual(["kettle.boiled", "Kettle boiled"]);
    expect(streamQuery(registry).parse({ types: "kettle.boiled,geofence.entry" }).types).toEqual(["kettle.boiled", "geofence.entry"]);
    expect(streamQuery(EVENTS).safeParse({ types: "kettle.boiled" }).success).toBe(false);
    expect(registry.isRecorded("kettle.boiled")).toBe(true);
    expect(registry.deliveredOn("kettle.boiled", "enterprise")).toBe(true);
    expect(registry.deliveredOn("kettle.boiled", "free")).toBe(false);
  });

  it("refuses a type declared twice, and a sample its own schema does not accept", () => {
    expect(() => buildRegistry([...EVENTS.declarations, EVENTS.declarations[0]!])).toThrow(/declared twice/);
    const broken = buildRegistry([{ ...kettleBoiled, sample: () => ({ event: "kettle.boiled" }) as never }]);
    expect(() => samplePayload("kettle.boiled", parts, broken)).toThrow();
  });

  it("keeps every type but location.updated in the events log, and delivers every type to enterprise webhooks only", () => {
    expect(EVENTS.types.filter((t) => !EVENTS.isRecorded(t))).toEqual(["location.updated"]);
    for (const t of EVENTS.types) {
      expect(EVENTS.deliveredOn(t, "enterprise"), t).toBe(true);
      expect(EVENTS.deliveredOn(t, "free"), t).toBe(false);
      // Every declared sample is a payload its schema accepts exactly.
      expect(() => samplePayload(t, parts), t).not.toThrow();
    }
  });
});
