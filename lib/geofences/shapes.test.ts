import fc from "fast-check";
import pointInPolygon from "point-in-polygon-hao";
import { orient2d } from "robust-predicates";
import { describe, expect, it } from "vitest";
import { EARTH_RADIUS_M, haversineMeters } from "./haversine";
import {
  containsPoint,
  firstConflict,
  metresToBoundary,
  MAX_POLYGON_POSITIONS,
  PolygonGeometryInput,
  polygonIssues,
  polygonSummary,
  sameGeometry,
  type PolygonGeometry,
} from "./shapes";

const poly = (...rings: [number, number][][]): PolygonGeometry => ({ type: "Polygon", coordinates: rings });
const at = (longitude: number, latitude: number) => ({ latitude, longitude });
const inside = (g: PolygonGeometry, lon: number, lat: number) => containsPoint({ ...polygonSummary(g), geometry: g }, at(lon, lat));

// A "U" opening north: x 0–3, y 0–3, with the notch x 1–2, y 1–3 cut out (concave).
const U = poly([[0, 0], [3, 0], [3, 3], [2, 3], [2, 1], [1, 1], [1, 3], [0, 3], [0, 0]]);
// A square 0–4 with a square hole 1–3.
const FRAME = poly([[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]], [[1, 1], [1, 3], [3, 3], [3, 1], [1, 1]]);

describe("containsPoint: polygons", () => {
  it("concave: the notch is outside, the arms and the base are inside", () => {
    expect(inside(U, 1.5, 2)).toBe(false);
    expect(inside(U, 1.5, 0.5)).toBe(true);
    expect(inside(U, 0.5, 2.5)).toBe(true);
    expect(inside(U, 2.5, 2.5)).toBe(true);
    // The centroid-and-radius circle holds the notch: only the exact test keeps it out.
    const s = polygonSummary(U);
    expect(haversineMeters(s, at(1.5, 2))).toBeLessThan(s.radius);
  });

  it("holes are outside; the ring between is inside", () => {
    expect(inside(FRAME, 2, 2)).toBe(false);
    expect(inside(FRAME, 0.5, 2)).toBe(true);
    expect(inside(FRAME, 5, 2)).toBe(false);
  });

  it("the boundary and the vertices count as inside, the hole's boundary too", () => {
    expect(inside(U, 1.5, 0)).toBe(true); // on an outer edge
    expect(inside(U, 1.5, 1)).toBe(true); // on the notch's floor
    expect(inside(U, 3, 3)).toBe(true); // a vertex
    expect(inside(U, 2, 1)).toBe(true); // a reflex vertex
    expect(inside(FRAME, 1, 2)).toBe(true); // a hole's edge
    expect(inside(FRAME, 3, 3)).toBe(true); // a hole's vertex
    expect(inside(U, 3.000001, 1.5)).toBe(false);
  });

  it("edges are straight in longitude/latitude, not great circles", () => {
    // A long east-west edge at 60° N: the great circle between its ends bulges north, the GeoJSON edge does not.
    const band = poly([[-40, 59], [40, 59], [40, 60], [-40, 60], [-40, 59]]);
    expect(inside(band, 0, 60)).toBe(true);
    expect(inside(band, 0, 60.5)).toBe(false);
  });
});

describe("sameGeometry", () => {
  it("agrees with comparing the JSON of both, for rings, holes and circles' null", () => {
    const ring = fc.array(fc.tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 })), { maxLength: 6 });
    const geometry = fc.option(fc.array(ring, { minLength: 1, maxLength: 3 }).map((rings) => poly(...rings)), { nil: null });
    fc.assert(
      fc.property(geometry, geometry, (a, b) => sameGeometry(a, b) === (JSON.stringify(a) === JSON.stringify(b))),
      { numRuns: 2000 },
    );
    // Equal rings in different objects, and one position apart.
    expect(sameGeometry(FRAME, structuredClone(FRAME))).toBe(true);
    const moved = structuredClone(FRAME);
    moved.coordinates[1]![2]![0] = 3.0000001;
    expect(sameGeometry(FRAME, moved)).toBe(false);
    expect(sameGeometry(U, null)).toBe(false);
  });
});

describe("polygonSummary", () => {
  it("gives the centroid and the distance to the farthest vertex", () => {
    const square = poly([[13.4, 52.5], [13.42, 52.5], [13.42, 52.52], [13.4, 52.52], [13.4, 52.5]]);
    const s = polygonSummary(square);
    expect(s.longitude).toBeCloseTo(13.41, 9);
    expect(s.latitude).toBeCloseTo(52.51, 6);
    const far = Math.max(...square.coordinates[0]!.map(([lon, lat]) => haversineMeters(s, at(lon, lat))));
    expect(s.radius).toBeGreaterThanOrEqual(far);
    expect(s.radius).toBeLessThan(far + 0.01);
  });

  it("rounds the centroid to 7 decimals and the radius up to the centimetre, without float noise", () => {
    const s = polygonSummary(poly([[13.4, 52.5], [13.41, 52.5], [13.41, 52.51], [13.4, 52.51], [13.4, 52.5]]));
    for (const [value, decimals] of [[s.longitude, 7], [s.latitude, 7], [s.radius, 2]] as const) {
      expect(String(value).split(".")[1]?.length ?? 0).toBeLessThanOrEqual(decimals);
    }
    expect(s.longitude).toBe(13.405);
    const far = Math.max(...[[13.4, 52.5], [13.41, 52.51]].map(([lon, lat]) => haversineMeters(s, at(lon!, lat!))));
    expect(s.radius).toBeGreaterThanOrEqual(far);
  });
});

describe("metresToBoundary", () => {
  const square = poly([[0, 0], [0.01, 0], [0.01, 0.01], [0, 0.01], [0, 0]]);
  const shape = { ...polygonSummary(square), geometry: square };
  const degree = (EARTH_RADIUS_M * Math.PI) / 180;
  it("measures the distance to a polygon's nearest edge in metres, from either side", () => {
    expect(metresToBoundary(shape, at(0.011, 0.005))).toBeCloseTo(0.001 * degree, -1);
    expect(metresToBoundary(shape, at(0.005, 0.009))).toBeCloseTo(0.001 * degree, -1);
    expect(metresToBoundary(shape, at(0.01, 0.005))).toBeCloseTo(0, 6);
  });
  it("counts a hole's edges: a point in the hole and one beside it measure to the hole's edge", () => {
    const holed: PolygonGeometry = {
      type: "Polygon",
      coordinates: [
        [[0, 0], [0.01, 0], [0.01, 0.01], [0, 0.01], [0, 0]],
        [[0.004, 0.004], [0.006, 0.004], [0.006, 0.006], [0.004, 0.006], [0.004, 0.004]],
      ],
    };
    const withHole = { ...polygonSummary(holed), geometry: holed };
    // The hole's centre: 0.001° from each of its edges.
    expect(metresToBoundary(withHole, at(0.005, 0.005))).toBeCloseTo(0.001 * degree, -1);
    // Between the hole (0.0005° away) and the exterior (0.0035° away): the hole's edge is the nearer one.
    expect(metresToBoundary(withHole, at(0.0035, 0.005))).toBeCloseTo(0.0005 * degree, -1);
  });
  it("for circles: the distance from the centre less the radius, on either side", () => {
    const circle = { latitude: 0, longitude: 0, radius: 100, geometry: null };
    expect(metresToBoundary(circle, at(0, 0.002))).toBeCloseTo(0.002 * degree - 100, 6);
    expect(metresToBoundary(circle, at(0, 0.0001))).toBeCloseTo(100 - 0.0001 * degree, 6);
  });
  it("agrees with great-circle distances to the densely sampled edges within 0.7 % (+5 cm), at any latitude", () => {
    // A 20-vertex star of ~300–600 m (the benches' polygons) at the equator, mid-latitudes, 70° N and across the
    // antimeridian; points scattered within ~1.5 km of it, inside and out. The reference: the nearest of 400 samples
    // per edge, by haversine on the contract's sphere (an upper bound within 1 mm of the true distance here). The
    // measure is on the WGS84 ellipsoid, whose radii of curvature differ from the sphere's by up to 0.6 %.
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (const [lat, lon] of [[0, 10], [52.5, 13.4], [-33.9, 151.2], [70, 25], [10, 179.999]] as const) {
      const ring: [number, number][] = Array.from({ length: 20 }, (_, k) => {
        const a = (2 * Math.PI * k) / 20;
        const r = k % 2 ? 0.005 : 0.0025;
        return [lon + (Math.sin(a) * r) / Math.cos((lat * Math.PI) / 180), lat + Math.cos(a) * r];
      });
      ring.push(ring[0]!);
      const star = { ...polygonSummary(poly(ring)), geometry: poly(ring) };
      for (let i = 0; i < 40; i++) {
        const p = at(lon + ((random() - 0.5) * 0.03) / Math.cos((lat * Math.PI) / 180), lat + (random() - 0.5) * 0.03);
        let reference = Infinity;
        for (let k = 0; k < 20; k++) {
          const [a, b] = [ring[k]!, ring[k + 1]!];
          for (let s = 0; s <= 400; s++) {
            const q = at(a[0] + ((b[0] - a[0]) * s) / 400, a[1] + ((b[1] - a[1]) * s) / 400);
            reference = Math.min(reference, haversineMeters(p, q));
          }
        }
        const measured = metresToBoundary(star, { latitude: p.latitude, longitude: p.longitude > 180 ? p.longitude - 360 : p.longitude });
        expect(Math.abs(measured - reference), `at ${JSON.stringify(p)}: ${measured} vs ${reference}`).toBeLessThanOrEqual(reference * 0.007 + 0.05);
      }
    }
  });
});

function problems(geometry: unknown): string[] {
  const r = PolygonGeometryInput.safeParse(geometry);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("PolygonGeometryInput", () => {
  it("accepts squares, concave shapes, holes and either winding", () => {
    expect(problems(U)).toEqual([]);
    expect(problems(FRAME)).toEqual([]);
    expect(problems(poly([[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]]))).toEqual([]);
    expect(problems(poly([[179, 0], [180, 0], [180, 1], [179, 0]]))).toEqual([]);
  });

  it("refuses a ring that is not closed, naming ring and position", () => {
    expect(problems(poly([[0, 0], [1, 0], [1, 1], [0, 1]]))).toEqual(["coordinates.0.3: the outer ring must be closed: its last position [0, 1] must equal its first [0, 0]"]);
    expect(problems(poly([[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]], [[1, 1], [1, 2], [2, 2], [2, 1.5]]))[0]).toMatch(/^coordinates\.1\.3: hole 1 must be closed/);
  });

  it("refuses a ring of fewer than 4 positions", () => {
    expect(problems(poly([[0, 0], [1, 0], [0, 0]]))).toEqual(["coordinates.0: the outer ring must have at least 4 positions (has 3)"]);
  });

  it("refuses more than 2,000 positions in all, and accepts exactly 2,000", () => {
    const ring = (n: number): [number, number][] => {
      const r: [number, number][] = [];
      for (let i = 0; i < n - 1; i++) r.push([Math.cos((2 * Math.PI * i) / (n - 1)), Math.sin((2 * Math.PI * i) / (n - 1))]);
      r.push(r[0]!);
      return r;
    };
    expect(problems(poly(ring(MAX_POLYGON_POSITIONS)))).toEqual([]);
    expect(problems(poly(ring(MAX_POLYGON_POSITIONS - 4), [[0, 0], [0.1, 0], [0.1, 0.1], [0, 0], [0, 0]].slice(0, 4) as [number, number][], [[0, 0]]))).toEqual([
      `coordinates: must have at most ${MAX_POLYGON_POSITIONS} positions in all (has 2001)`,
    ]);
  });

  it("refuses self-intersection, naming the crossing edges", () => {
    const bowtie = poly([[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]);
    expect(problems(bowtie)).toEqual(["coordinates.0: the outer ring intersects itself at [0.5, 0.5]: edge coordinates[0][0]→[1] crosses edge coordinates[0][2]→[3]"]);
  });

  it("refuses a hole that crosses the outer ring or another hole", () => {
    const crossing = poly([[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]], [[3, 1], [5, 1], [5, 2], [3, 2], [3, 1]]);
    expect(problems(crossing)).toEqual([expect.stringMatching(/^coordinates\.1: ring 1 touches or crosses ring 0 at \[4, [12]\]: edge coordinates\[1\]\[\d\]→\[\d\] meets edge coordinates\[0\]\[1\]→\[2\]$/)]);
    const holes = poly([[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]], [[1, 1], [2, 1], [2, 2], [1, 2], [1, 1]], [[1.5, 1.5], [3, 1.5], [3, 3], [1.5, 3], [1.5, 1.5]]);
    expect(problems(holes)[0]).toMatch(/^coordinates\.2: ring 2 touches or crosses ring 1/);
  });

  it("refuses zero area", () => {
    expect(problems(poly([[0, 0], [1, 1], [2, 2], [0, 0]]))).toEqual(["coordinates.0: the outer ring has zero area (its positions are collinear or repeated)"]);
    expect(problems(poly([[5, 5], [5, 5], [5, 5], [5, 5]]))).toEqual(["coordinates.0: the outer ring has zero area (its positions are collinear or repeated)"]);
  });

  it("refuses a ring spanning more than 180° of longitude", () => {
    expect(problems(poly([[-170, 0], [170, 0], [170, 1], [-170, 1], [-170, 0]]))).toEqual([
      "coordinates.0: the outer ring spans 340° of longitude (positions 0 and 1); at most 180° (split a fence across the antimeridian in two)",
    ]);
  });

  it("refuses positions out of range or malformed, and other types", () => {
    expect(problems(poly([[0, 0], [200, 0], [1, 1], [0, 0]]))).toEqual(["coordinates.0.1.0: longitude must be between -180 and 180"]);
    expect(problems(poly([[0, 0], [1, 95], [1, 1], [0, 0]]))).toEqual(["coordinates.0.1.1: latitude must be between -90 and 90"]);
    expect(problems({ type: "Polygon", coordinates: [[[0, 0], [1], [1, 1], [0, 0]]] })[0]).toMatch(/^coordinates\.0\.1/);
    expect(problems({ type: "Point", coordinates: [0, 0] })[0]).toMatch(/^type: must be "Polygon"/);
    expect(problems({ type: "Polygon", coordinates: [] })).toEqual(["coordinates: must hold at least the outer ring"]);
    expect(problems({ type: "Polygon", coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]], bbox: [0, 0, 1, 1] })[0]).toMatch(/bbox/);
  });
});

describe("PolygonGeometryInput: holes and repeated positions", () => {
  const square = (x: number, y: number, size: number): [number, number][] => [[x, y], [x + size, y], [x + size, y + size], [x, y + size], [x, y]];

  it("refuses a hole outside the outer ring, naming the hole", () => {
    expect(problems(poly(square(0, 0, 1), square(5, 5, 1)))).toEqual(["coordinates.1: hole 1 lies outside the outer ring (a hole must be inside it)"]);
    // Around the outer ring rather than beside it: outside as well.
    expect(problems(poly(square(1, 1, 1), square(0, 0, 4)))).toEqual(["coordinates.1: hole 1 lies outside the outer ring (a hole must be inside it)"]);
  });

  it("refuses a hole inside another hole, naming the inner one", () => {
    expect(problems(poly(square(0, 0, 10), square(1, 1, 6), square(2, 2, 2)))).toEqual(["coordinates.2: hole 2 lies inside hole 1 (holes may not overlap or nest)"]);
    expect(problems(poly(square(0, 0, 10), square(2, 2, 2), square(1, 1, 6)))).toEqual(["coordinates.1: hole 1 lies inside hole 2 (holes may not overlap or nest)"]);
    expect(problems(poly(square(0, 0, 10), square(1, 1, 2), square(5, 5, 2)))).toEqual([]);
  });

  it("names a repeated position as such, not as a crossing", () => {
    expect(problems(poly([[0, 0], [1, 0], [1, 1], [1, 1], [0, 1], [0, 0]]))).toEqual([
      "coordinates.0.3: in the outer ring, position [3] repeats position [2] [1, 1]: remove one of them",
    ]);
    expect(problems(poly(square(0, 0, 4), [[1, 1], [2, 1], [2, 2], [1, 1], [1, 1]]))).toEqual([
      "coordinates.1.4: in hole 1, position [4] repeats position [3] [1, 1]: remove one of them",
    ]);
  });

  it("refuses a ring that folds back along itself or touches itself", () => {
    expect(problems(poly([[0, 0], [2, 0], [1, 0], [1, 1], [0, 0]]))).toEqual([
      "coordinates.0: the outer ring intersects itself at [1, 0]: edge coordinates[0][0]→[1] overlaps edge coordinates[0][1]→[2]",
    ]);
    // A figure eight through one shared position.
    expect(problems(poly([[0, 0], [1, 1], [2, 0], [2, 2], [1, 1], [0, 2], [0, 0]]))[0]).toMatch(
      /^coordinates\.0: the outer ring intersects itself at \[1, 1\]: edge coordinates\[0\]\[\d\]→\[\d\] touches edge/,
    );
  });

  it("gives a computed crossing to 7 decimals, without float noise", () => {
    const [message] = problems(poly([[13.4, 52.5], [13.41, 52.51], [13.41, 52.5], [13.4, 52.51], [13.4, 52.5]]));
    expect(message).toMatch(/intersects itself at \[13\.405, 52\.505\]:/);
  });
});

/** The positions of the polygon of the report: a 1,334-position shell and 166 holes of 4 positions, 1,998 in all. */
function manyRings(): [number, number][][] {
  const shell: [number, number][] = [];
  for (let i = 0; i < 1333; i++) shell.push([13 + Math.cos((2 * Math.PI * i) / 1333), 52 + Math.sin((2 * Math.PI * i) / 1333)]);
  shell.push(shell[0]!);
  const holes: [number, number][][] = [];
  for (let k = 0; k < 166; k++) {
    const [x, y] = [12.5 + (k % 13) * 0.07, 51.5 + Math.floor(k / 13) * 0.07];
    holes.push([[x, y], [x + 0.03, y], [x, y + 0.03], [x, y]]);
  }
  return [shell, ...holes];
}

/** 2,000 positions whose long, nearly parallel edges all overlap in longitude and latitude: no box index helps. */
function sawtooth(): [number, number][][] {
  const ring: [number, number][] = [];
  for (let i = 0; i < 999; i++) ring.push([i * 0.001, 0], [i * 0.001 + 1.0005, 1]);
  ring.push([1.5, -0.5], [0, 0]);
  return [ring];
}

describe("validation cost", () => {
  const fastest = (geometry: unknown) => {
    let best = Infinity;
    // The fastest of ten: what the validation costs, not what a loaded machine's scheduler adds.
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      expect(problems(geometry)).toEqual([]);
      best = Math.min(best, performance.now() - started);
    }
    return best;
  };

  it("validates 2,000 positions in many rings, or in long overlapping edges, within 50 ms", () => {
    expect(manyRings().flat().length + sawtooth().flat().length).toBe(1998 + 2000);
    expect(fastest(poly(...manyRings()))).toBeLessThanOrEqual(50);
    expect(fastest(poly(...sawtooth()))).toBeLessThanOrEqual(50);
  });
});

type Ring = [number, number][];

/** Every pair of edges that meet where they may not, testing each pair: the reference for the sweep. */
function conflictingPairs(rings: Ring[], orient: (a: number[], b: number[], c: number[]) => number): Set<string> {
  const edges = rings.flatMap((ring, r) => ring.slice(0, -1).map((p, i) => ({ r, i, p, q: ring[i + 1]!, n: ring.length - 1 })));
  const on = (a: number[], b: number[], c: number[]) =>
    orient(a, b, c) === 0 && Math.min(a[0]!, b[0]!) <= c[0]! && c[0]! <= Math.max(a[0]!, b[0]!) && Math.min(a[1]!, b[1]!) <= c[1]! && c[1]! <= Math.max(a[1]!, b[1]!);
  const out = new Set<string>();
  for (let x = 0; x < edges.length; x++) {
    for (let y = x + 1; y < edges.length; y++) {
      const [a, b] = [edges[x]!, edges[y]!];
      let meet: boolean;
      if (a.r === b.r && (b.i - a.i === 1 || b.i - a.i === a.n - 1)) {
        // Consecutive edges share one position; they conflict only if one's far end lies on the other.
        const [u, m, v] = b.i - a.i === 1 ? [a.p, a.q, b.q] : [b.p, b.q, a.q];
        meet = on(u, m, v) || on(m, v, u);
      } else {
        const [d1, d2, d3, d4] = [orient(b.p, b.q, a.p), orient(b.p, b.q, a.q), orient(a.p, a.q, b.p), orient(a.p, a.q, b.q)];
        meet = (Math.sign(d1) * Math.sign(d2) < 0 && Math.sign(d3) * Math.sign(d4) < 0) || on(b.p, b.q, a.p) || on(b.p, b.q, a.q) || on(a.p, a.q, b.p) || on(a.p, a.q, b.q);
      }
      if (meet) out.add(`${a.r}.${a.i}/${b.r}.${b.i}`);
    }
  }
  return out;
}

/** A closed ring from positions: consecutive repeats removed, then closed; null when fewer than 3 remain. */
function closed(positions: Ring): Ring | null {
  const ring = positions.filter((p, i) => i === 0 || p[0] !== positions[i - 1]![0] || p[1] !== positions[i - 1]![1]);
  while (ring.length > 1 && ring[ring.length - 1]![0] === ring[0]![0] && ring[ring.length - 1]![1] === ring[0]![1]) ring.pop();
  return ring.length >= 3 ? [...ring, ring[0]!] : null;
}

describe("firstConflict agrees with testing every pair of edges", () => {
  const agree = (rings: Ring[], orient: (a: number[], b: number[], c: number[]) => number) => {
    const reference = conflictingPairs(rings, orient);
    const found = firstConflict(rings);
    if (found === null) expect(reference.size, `missed one of ${[...reference].join(", ")}`).toBe(0);
    else expect(reference.has(`${found[0].ring}.${found[0].edge}/${found[1].ring}.${found[1].edge}`), JSON.stringify(found)).toBe(true);
  };
  const rings = (coordinate: fc.Arbitrary<number>, maxLength: number) =>
    fc.array(fc.array(fc.tuple(coordinate, coordinate), { minLength: 3, maxLength }), { minLength: 1, maxLength: 3 })
      .map((raw) => raw.map(closed).filter((r): r is Ring => r !== null))
      .filter((r) => r.length > 0);

  it("on a small grid, where edges often touch, overlap and pass through positions (exact integer reference)", () => {
    const exact = (a: number[], b: number[], c: number[]) => (b[0]! - a[0]!) * (c[1]! - a[1]!) - (b[1]! - a[1]!) * (c[0]! - a[0]!);
    fc.assert(fc.property(rings(fc.integer({ min: 0, max: 5 }), 9), (r) => agree(r, exact)), { numRuns: 3000 });
  });

  it("on star-shaped rings around a point, mostly simple", () => {
    const star = fc.array(fc.tuple(fc.integer({ min: 0, max: 359 }), fc.integer({ min: 1, max: 4 })), { minLength: 3, maxLength: 16 }).map((spokes) =>
      closed([...spokes].sort((a, b) => a[0] - b[0]).map(([deg, r]): [number, number] => [Math.round(r * 3 * Math.cos((deg * Math.PI) / 180)), Math.round(r * 3 * Math.sin((deg * Math.PI) / 180))])),
    );
    const exact = (a: number[], b: number[], c: number[]) => (b[0]! - a[0]!) * (c[1]! - a[1]!) - (b[1]! - a[1]!) * (c[0]! - a[0]!);
    fc.assert(
      fc.property(fc.array(star, { minLength: 1, maxLength: 3 }), (raw) => {
        const r = raw.filter((x): x is Ring => x !== null);
        if (r.length > 0) agree(r, exact);
      }),
      { numRuns: 2000 },
    );
  });

  it("on real-valued coordinates, with no subnormal differences (robust orient2d reference)", () => {
    const robust = (a: number[], b: number[], c: number[]) => orient2d(a[0]!, a[1]!, b[0]!, b[1]!, c[0]!, c[1]!);
    fc.assert(fc.property(rings(fc.double({ min: -1, max: 1, noNaN: true }).map((x) => 13 + x), 12), (r) => agree(r, robust)), { numRuns: 1000 });
  });

  it("places holes as testing each hole against every ring does", () => {
    const star = fc.array(fc.tuple(fc.integer({ min: 0, max: 359 }), fc.integer({ min: 2, max: 6 })), { minLength: 3, maxLength: 12 }).map((spokes) =>
      closed([...spokes].sort((a, b) => a[0] - b[0]).map(([deg, r]): [number, number] => [Math.round(r * 4 * Math.cos((deg * Math.PI) / 180)), Math.round(r * 4 * Math.sin((deg * Math.PI) / 180))])),
    );
    // Squares around points near the centre: often inside the outer ring, sometimes around one another.
    const square = fc.tuple(fc.integer({ min: -6, max: 6 }), fc.integer({ min: -6, max: 6 }), fc.integer({ min: 1, max: 6 })).map(
      ([x, y, d]): Ring => [[x - d, y - d], [x + d, y - d], [x + d, y + d], [x - d, y + d], [x - d, y - d]],
    );
    fc.assert(
      fc.property(star, fc.array(square, { minLength: 1, maxLength: 5 }), (shell, holes) => {
        const rings = [shell, ...holes].filter((r): r is Ring => r !== null);
        if (rings.length !== holes.length + 1 || firstConflict(rings) !== null || polygonIssues(rings).some((i) => !/^hole \d+ lies/.test(i.message))) return;
        const expected = holes.flatMap((hole, k) => {
          const h = k + 1;
          if (pointInPolygon(hole[0]!, [shell!]) !== true) return [`${h}: hole ${h} lies outside the outer ring (a hole must be inside it)`];
          const around = holes.findIndex((other, g) => g !== k && pointInPolygon(hole[0]!, [other]) === true);
          return around < 0 ? [] : [`${h}: hole ${h} lies inside hole ${around + 1} (holes may not overlap or nest)`];
        });
        expect(polygonIssues(rings).map((i) => `${i.path[1]}: ${i.message}`)).toEqual(expected);
      }),
      { numRuns: 8000 },
    );
  });

  it("finds nothing in the valid polygons above, and the same verdict through polygonIssues", () => {
    expect(firstConflict(manyRings())).toBeNull();
    expect(firstConflict(sawtooth())).toBeNull();
    expect(polygonIssues(sawtooth())).toEqual([]);
  });
});
