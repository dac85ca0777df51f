import { describe, expect, it } from "vitest";
import { fieldSentence, polygonSentence, polygonSentences } from "@/components/geofences/geofence-messages";
import { CreateGeofenceInput } from "@/lib/geofences/schemas";
import { fieldPath } from "@/lib/http/errors";

// The editor's error sentences, fed with the messages the real schema produces.
function errorsOf(geometry: unknown): Record<string, string> {
  const parsed = CreateGeofenceInput.safeParse({ name: "x", shape: "polygon", geometry });
  expect(parsed.success).toBe(false);
  const out: Record<string, string> = {};
  for (const issue of parsed.success ? [] : parsed.error.issues) out[fieldPath(issue.path)] ??= issue.message;
  return out;
}

describe("geofence editor messages", () => {
  it("makes a field's message a sentence that names the field", () => {
    expect(fieldSentence("Exit buffer", "must be between 0 and 10000 metres")).toBe("Exit buffer must be between 0 and 10000 metres.");
    expect(fieldSentence("Metadata", "Not valid JSON.")).toBe("Metadata: Not valid JSON.");
    // The dashboard's actions already send whole sentences (lib/dashboard/field-messages.ts): kept as they are.
    expect(fieldSentence("Exit buffer", "Exit buffer must be between 0 and 10000 metres.")).toBe("Exit buffer must be between 0 and 10000 metres.");
  });

  it("names the corners of a self-intersecting outer ring, latitude first, counting from 1", () => {
    const bowtie = { type: "Polygon", coordinates: [[[13.4, 52.5], [13.41, 52.51], [13.41, 52.5], [13.4, 52.51], [13.4, 52.5]]] };
    const sentences = polygonSentences(errorsOf(bowtie));
    expect(sentences).toEqual([
      "The outer ring intersects itself at 52.50500, 13.40500: the side from corner 1 to corner 2 crosses the side from corner 3 to corner 4.",
    ]);
  });

  it("names the corner of an invalid position and an unclosed ring", () => {
    const bad = { type: "Polygon", coordinates: [[[13.4, 52.5], [13.41, 95], [13.41, 52.51], [13.4, 52.5]]] };
    expect(polygonSentences(errorsOf(bad))).toEqual(["Corner 2 of the outer ring: latitude must be between -90 and 90."]);
    const open = { type: "Polygon", coordinates: [[[13.4, 52.5], [13.41, 52.5], [13.41, 52.51], [13.4, 52.51]]] };
    expect(polygonSentences(errorsOf(open))[0]).toBe(
      "Corner 4 of the outer ring: the outer ring must be closed: its last position 52.51000, 13.40000 must equal its first 52.50000, 13.40000.",
    );
  });

  it("describes a hole that crosses the outer ring, and a polygon-level message", () => {
    const outer = [[13.4, 52.5], [13.42, 52.5], [13.42, 52.52], [13.4, 52.52], [13.4, 52.5]];
    const hole = [[13.41, 52.51], [13.43, 52.51], [13.43, 52.515], [13.41, 52.515], [13.41, 52.51]];
    const [sentence] = polygonSentences(errorsOf({ type: "Polygon", coordinates: [outer, hole] }));
    expect(sentence).toMatch(/^Hole 1 touches or crosses the outer ring at 52\.51\d+, 13\.42000: the side from corner \d to corner \d meets the side from corner \d to corner \d\.$/);
    expect(polygonSentence("geometry", "required when shape is \"polygon\"")).toBe('The polygon is required when shape is "polygon".');
  });
});
