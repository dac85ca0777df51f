import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { CreateGeofenceInput, UpdateGeofenceInput } from "@/lib/geofences/schemas";
import { LARGE_BODY_CHARS } from "@/lib/http/body";
import { bodyPool } from "@/lib/http/body-pool";
import { metrics } from "@/lib/metrics/registry";
import { manyRings } from "@/tests/support/polygon-burst";
import { invalidInputResult, parseActionInput } from "./action";

const polygon = (rings: number[][][]) => ({ name: " Depot ", shape: "polygon", geometry: { type: "Polygon", coordinates: rings } });

async function largeDecodes(): Promise<{ thread: number; loop: number }> {
  const metric = await metrics().largeBodyDecodeDuration.get();
  const count = (where: string) => metric.values.find((v) => v.metricName?.endsWith("_count") && v.labels.where === where)?.value ?? 0;
  return { thread: count("thread"), loop: count("loop") };
}

/** What parseActionInput said of `input`, and where validations ran meanwhile (pool tasks, and the metric's counts). */
async function checked(schema: z.ZodType, input: unknown) {
  const [completed, decodes] = [bodyPool().completed, await largeDecodes()];
  const result = await parseActionInput(schema, input);
  const after = await largeDecodes();
  return { result, inThreads: bodyPool().completed - completed, counted: { thread: after.thread - decodes.thread, loop: after.loop - decodes.loop } };
}

/** The event loop's answer: safeParse, as the action ran it before. */
function inline(schema: z.ZodType, input: unknown) {
  const parsed = schema.safeParse(input);
  return parsed.success ? { success: true, data: parsed.data } : { success: false, issues: parsed.error.issues };
}

describe("dashboard actions: large geofence inputs validated in worker threads", () => {
  afterAll(() => bodyPool().close());

  it("validates a large polygon in a thread, to the data safeParse gives inline", async () => {
    const input = polygon(manyRings(13.3, 52.5));
    expect(JSON.stringify(input).length).toBeGreaterThanOrEqual(LARGE_BODY_CHARS);
    const { result, inThreads, counted } = await checked(CreateGeofenceInput, input);
    expect({ inThreads, counted }).toEqual({ inThreads: 1, counted: { thread: 1, loop: 0 } });
    expect(result).toEqual(inline(CreateGeofenceInput, input));
    expect(result).toMatchObject({ success: true, data: { name: "Depot", exitBuffer: 0, metadata: {} } });
  });

  it("answers an invalid large polygon from a thread with the issues and field errors of inline", async () => {
    const crossing = manyRings(13.3, 52.5);
    [crossing[0]![10], crossing[0]![11]] = [crossing[0]![11]!, crossing[0]![10]!];
    const holeOutside = manyRings(13.3, 52.5);
    holeOutside[5] = holeOutside[5]!.map(([x, y]) => [x! + 1, y!]);
    const cases = [
      [CreateGeofenceInput, { ...polygon(crossing), name: "", colour: "red" }],
      [UpdateGeofenceInput, { ...polygon(holeOutside), shape: undefined }],
      // Values JSON would turn into others (NaN into null, undefined dropped): the thread sees them as they are.
      [CreateGeofenceInput, { ...polygon(manyRings(13.3, 52.5)), exitBuffer: Number.NaN, tag: undefined, radius: undefined }],
    ] as const;
    for (const [schema, input] of cases) {
      const { result, inThreads, counted } = await checked(schema, input);
      expect({ inThreads, counted }).toEqual({ inThreads: 1, counted: { thread: 1, loop: 0 } });
      const expected = inline(schema, input);
      expect(expected.success).toBe(false);
      expect(result).toEqual(expected);
      if (result.success || expected.success) throw new Error("expected both to fail");
      expect(invalidInputResult(result.issues)).toEqual(invalidInputResult(expected.issues!));
    }
    const { result } = await checked(CreateGeofenceInput, { ...polygon(crossing), name: "", colour: "red" });
    expect(result.success ? {} : invalidInputResult(result.issues).fieldErrors).toMatchObject({
      name: "Name must be 1–100 characters.",
      colour: "Colour is not a field this form accepts.",
      "geometry.coordinates[0]": expect.stringMatching(/^the outer ring intersects itself at /),
    });
  });

  it("keeps small inputs, other schemas' inputs and inputs no thread can take on the event loop", async () => {
    const small = polygon([[[13.4, 52.52], [13.41, 52.52], [13.41, 52.53], [13.4, 52.52]]]);
    const withFunction = { ...polygon(manyRings(13.3, 52.5)), onSave: () => {} };
    for (const [schema, input] of [
      [CreateGeofenceInput, small],
      [z.object({ name: z.string().trim(), geometry: z.unknown() }), polygon(manyRings(13.3, 52.5))],
    ] as const) {
      const { result, inThreads, counted } = await checked(schema, input);
      expect({ inThreads, counted }).toEqual({ inThreads: 0, counted: { thread: 0, loop: 0 } });
      expect(result).toEqual(inline(schema, input));
    }
    // The pool counts the refused hand-over as a task done; no thread validated it.
    const { result, counted } = await checked(CreateGeofenceInput, withFunction);
    expect(counted).toEqual({ thread: 0, loop: 0 });
    expect(result).toEqual(inline(CreateGeofenceInput, withFunction));
    expect(result).toMatchObject({ success: false, issues: [{ code: "unrecognized_keys", keys: ["onSave"] }] });
  });
});
