import { describe, expect, it } from "vitest";
import { MAX_DRAWN_POINTS, SIMPLIFY_ABOVE, simplifyForDrawing } from "./simplify";

const walk = (n: number, f: (i: number) => [number, number]) => Array.from({ length: n }, (_, i) => ({ id: i, latitude: f(i)[0], longitude: f(i)[1] }));

describe("simplifyForDrawing", () => {
  it("keeps a short track whole", () => {
    const pts = walk(SIMPLIFY_ABOVE, (i) => [52 + Math.sin(i) / 100, 13 + i / 1000]);
    expect(simplifyForDrawing(pts)).toEqual(pts);
  });

  it("a long straight track becomes its two ends", () => {
    const pts = walk(50_000, (i) => [52 + i / 1e6, 13 + i / 1e6]);
    const kept = simplifyForDrawing(pts);
    expect(kept.map((p) => p.id)).toEqual([0, 49_999]);
  });

  it("keeps the corners of a zig-zag and the original objects, in order", () => {
    // 20 legs of 1,000 points each: the 21 corners are what matters.
    const pts = walk(20_001, (i) => [52 + (Math.floor(i / 1000) % 2 === 0 ? (i % 1000) : 1000 - (i % 1000)) / 1e5, 13 + i / 1e5]);
    const kept = simplifyForDrawing(pts);
    // Each corner, or a neighbour less than the tolerance (a 4,000th of the extent) away from it.
    expect(kept).toHaveLength(21);
    kept.forEach((p, c) => expect(Math.abs(p.id - c * 1000), `corner ${c}`).toBeLessThanOrEqual(1));
    expect(kept[3]).toBe(pts[kept[3]!.id]);
  });

  it("never draws more than MAX_DRAWN_POINTS, however noisy the track", () => {
    let seed = 1;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    // A random walk with GPS jitter: every point is a corner of some size.
    let lat = 52, lon = 13;
    const pts = walk(100_000, () => [(lat += (rnd() - 0.5) / 1e3), (lon += (rnd() - 0.5) / 1e3)]);
    const kept = simplifyForDrawing(pts);
    expect(kept.length).toBeLessThanOrEqual(MAX_DRAWN_POINTS);
    expect(kept.length).toBeGreaterThan(MAX_DRAWN_POINTS / 2);
    expect(kept[0]).toBe(pts[0]);
    expect(kept.at(-1)).toBe(pts.at(-1));
  });
});
