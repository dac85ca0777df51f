import { describe, expect, it } from "vitest";
import { importChoices } from "./choices";
import { detectFormat, IMPORT_FORMAT_NAMES, IMPORT_FORMATS } from "./formats";
import { MAX_IMPORT_BYTES } from "./schemas";

describe("importChoices", () => {
  it("offers every registered format by its label, and the limit the upload enforces", () => {
    const choices = importChoices();
    expect(choices.labels).toEqual(IMPORT_FORMAT_NAMES.map((f) => IMPORT_FORMATS[f].label));
    expect(MAX_IMPORT_BYTES).toBe(512 * 1024 * 1024);
    expect(choices.maxSize).toBe("512 MB");
  });

  it("accepts a file of every format: each example name has an accepted extension and is detected as its format", () => {
    const accepted = importChoices().accept.split(",");
    const examples: Record<string, string> = { gpx: "ride.gpx", geojson: "track.geojson", csv: "export.csv", owntracks: "2024-05.rec", takeout: "Records.json" };
    for (const format of IMPORT_FORMAT_NAMES) {
      const name = examples[format]!;
      expect(detectFormat(name, null)).toBe(format);
      expect(accepted.some((a) => a.startsWith(".") && name.toLowerCase().endsWith(a))).toBe(true);
    }
    for (const format of IMPORT_FORMAT_NAMES) for (const type of IMPORT_FORMATS[format].mediaTypes) expect(accepted).toContain(type);
  });
});
