import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { CreateGeofenceInput, UpdateGeofenceInput } from "@/lib/geofences/schemas";
import { manyRings } from "@/tests/support/polygon-burst";
import { decodeJsonBody, LARGE_BODY_CHARS, parseBody } from "./body";
import { bodyPool } from "./body-pool";
import { metrics } from "@/lib/metrics/registry";
import { ApiError } from "./errors";

const post = (body: string) => new Request("http://fenceline.test/api/v1/geofences", { method: "POST", headers: { "Content-Type": "application/json" }, body });

/** What parseBody did with `body`, and how many bodies the worker threads decoded meanwhile. */
async function decoded<S extends z.ZodType>(body: unknown, schema: S): Promise<{ result: z.output<S> | ApiError; inThreads: number }> {
  const text = JSON.stringify(body);
  const before = bodyPool().completed;
  const result = await parseBody(post(text), schema).catch((err: unknown) => {
    if (err instanceof ApiError) return err;
    throw err;
  });
  return { result, inThreads: bodyPool().completed - before };
}

/** What decoding `body` on the event loop gives: the data or the ApiError. */
function inline<S extends z.ZodType>(body: unknown, schema: S): z.output<S> | ApiError {
  try {
    return decodeJsonBody(JSON.stringify(body), schema);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

const polygon = (rings: number[][][]) => ({ name: " Depot ", shape: "polygon", geometry: { type: "Polygon", coordinates: rings } });

describe("parseBody: large bodies decoded in worker threads", () => {
  afterAll(() => bodyPool().close());

  it("decodes a large geofence body in a worker, to the data the event loop would get", async () => {
    const body = polygon(manyRings(13.3, 52.5));
    expect(JSON.stringify(body).length).toBeGreaterThanOrEqual(LARGE_BODY_CHARS);
    const { result, inThreads } = await decoded(body, CreateGeofenceInput);
    expect(inThreads).toBe(1);
    expect(result).toEqual(inline(body, CreateGeofenceInput));
    expect(result).toMatchObject({ name: "Depot", exitBuffer: 0, metadata: {} });
  });

  it("answers an invalid large polygon with the same 400 as the event loop, naming each problem", async () => {
    const crossing = manyRings(13.3, 52.5);
    [crossing[0]![10], crossing[0]![11]] = [crossing[0]![11]!, crossing[0]![10]!];
    const hole = manyRings(13.3, 52.5);
    hole[5] = hole[5]!.map(([x, y]) => [x! + 1, y!]);
    for (const [body, schema] of [
      [polygon(crossing), CreateGeofenceInput],
      [{ ...polygon(hole), shape: undefined, name: "" }, UpdateGeofenceInput],
      [{ ...polygon(manyRings(13.3, 52.5)), radius: 5, colour: "red" }, CreateGeofenceInput],
    ] as const) {
      const { result, inThreads } = await decoded(body, schema);
      expect(inThreads).toBe(1);
      expect(result).toBeInstanceOf(ApiError);
      const expected = inline(body, schema) as ApiError;
      expect(expected).toBeInstanceOf(ApiError);
      expect({ code: (result as ApiError).code, message: (result as ApiError).message }).toEqual({ code: expected.code, message: expected.message });
    }
    const { result } = await decoded(polygon(crossing), CreateGeofenceInput);
    expect((result as ApiError).message).toMatch(/^Invalid body: geometry\.coordinates\[0\]: the outer ring intersects itself at /);
  });

  it("refuses large text that is not a JSON object in a worker, as on the event loop", async () => {
    const text = `{"name": "x", "geometry": ${"[".repeat(40)}${"]".repeat(40)}, "pad": "${"p".repeat(LARGE_BODY_CHARS)}"}`;
    const before = bodyPool().completed;
    await expect(parseBody(post(text), CreateGeofenceInput)).rejects.toMatchObject({ code: "invalid_request", message: "Request body is nested deeper than 32 levels" });
    await expect(parseBody(post(`${text}]`), CreateGeofenceInput)).rejects.toMatchObject({ code: "invalid_request", message: "Request body is not valid JSON" });
    expect(bodyPool().completed - before).toBe(2);
  });

  it("keeps small bodies, and large ones of other schemas, on the event loop; counts large ones by where they ran", async () => {
    const counted = async () => {
      const metric = await metrics().largeBodyDecodeDuration.get();
      const count = (where: string) => metric.values.find((v) => v.metricName?.endsWith("_count") && v.labels.where === where)?.value ?? 0;
      return { thread: count("thread"), loop: count("loop") };
    };
    const start = await counted();
    const small = polygon([[[13.4, 52.52], [13.41, 52.52], [13.41, 52.53], [13.4, 52.52]]]);
    expect((await decoded(small, CreateGeofenceInput)).inThreads).toBe(0);
    const other = z.object({ notes: z.string() });
    const large = { notes: "n".repeat(LARGE_BODY_CHARS) };
    expect(await decoded(large, other)).toEqual({ result: large, inThreads: 0 });
    await decoded(polygon(manyRings(13.3, 52.5)), CreateGeofenceInput);
    const end = await counted();
    expect({ thread: end.thread - start.thread, loop: end.loop - start.loop }).toEqual({ thread: 1, loop: 1 });
  });
});
