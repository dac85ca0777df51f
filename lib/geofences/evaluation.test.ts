import { describe, expect, it } from "vitest";
import {
  confidenceOf,
  contains,
  EARTH_RADIUS_M,
  evaluatePoints,
  haversineMeters,
  isAfter,
  type Cursor,
  type EvalPoint,
  type FenceMemory,
  type FenceShape,
  type LatLon,
  NO_MEMORY,
} from "./evaluation";

const DEG = 180 / Math.PI;
/** The point `meters` north of `from` along its meridian (a great circle, so the distance is exact). */
const north = (from: LatLon, meters: number): LatLon => ({ latitude: from.latitude + (meters / EARTH_RADIUS_M) * DEG, longitude: from.longitude });

const T0 = Date.parse("2026-01-01T00:00:00.000Z");
const at = (seconds: number) => new Date(T0 + seconds * 1000);
// UUIDv7-shaped ids that sort by their last digits.
const pid = (n: number) => `01900000-0000-7000-8000-${String(n).padStart(12, "0")}`;
let seq = 0;
const pt = (seconds: number, where: LatLon, id = pid(++seq)): EvalPoint => ({ id, timestamp: at(seconds), ...where });

const fence = (id: string, centre: LatLon, radius: number): FenceShape => ({ id, radius, ...centre });

/** Runs evaluatePoints with every given fence as a candidate of every point (the superset the contract allows). */
function run(fences: FenceShape[], points: EvalPoint[], opts: { cursor?: Cursor | null; inside?: string[]; shapes?: FenceShape[] } = {}) {
  const shapes = new Map((opts.shapes ?? fences).map((f) => [f.id, f]));
  return evaluatePoints({ cursor: opts.cursor ?? null, inside: new Set(opts.inside ?? []), points, candidates: () => fences, shapes });
}
const summary = (r: ReturnType<typeof run>) => r.transitions.map((t) => `${t.kind}:${t.geofenceId}@${t.point.id}`);

const PARIS = { latitude: 48.8566, longitude: 2.3522 };
const LONDON = { latitude: 51.5074, longitude: -0.1278 };
const HOME = { latitude: 52.52, longitude: 13.405 };
const FAR = north(HOME, 5_000);

describe("haversineMeters", () => {
  it("matches known distances", () => {
    expect(Math.abs(haversineMeters(PARIS, LONDON) - 343_500) / 343_500).toBeLessThan(0.001);
    // One degree of latitude: R·π/180 on this sphere.
    expect(haversineMeters({ latitude: 10, longitude: 20 }, { latitude: 11, longitude: 20 })).toBeCloseTo((EARTH_RADIUS_M * Math.PI) / 180, 3);
    expect(haversineMeters({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 }) / 1000).toBeCloseTo(111.2, 1);
    expect(haversineMeters({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 })).toBeCloseTo(Math.PI * EARTH_RADIUS_M, 3);
    // Haversine is ill-conditioned near antipodes (h ≈ 1): still well under a metre in 20,000 km.
    expect(haversineMeters({ latitude: 40, longitude: -74 }, { latitude: -40, longitude: 106 })).toBeCloseTo(Math.PI * EARTH_RADIUS_M, 0);
    expect(haversineMeters({ latitude: 90, longitude: 0 }, { latitude: -90, longitude: 0 })).toBeCloseTo(Math.PI * EARTH_RADIUS_M, 3);
  });

  it("is zero for the same point and symmetric", () => {
    expect(haversineMeters(PARIS, PARIS)).toBe(0);
    expect(haversineMeters(PARIS, LONDON)).toBe(haversineMeters(LONDON, PARIS));
  });

  it("measures across the antimeridian and at the poles", () => {
    // 0.001° of longitude on the equator.
    const across = haversineMeters({ latitude: 0, longitude: 179.9995 }, { latitude: 0, longitude: -179.9995 });
    expect(across).toBeCloseTo((EARTH_RADIUS_M * Math.PI) / 180 / 1000, 6);
    // Longitude means nothing at the pole.
    for (const lon of [-180, -90, 0, 45, 179.9]) {
      expect(haversineMeters({ latitude: 90, longitude: 0 }, { latitude: 89.9999, longitude: lon })).toBeCloseTo((EARTH_RADIUS_M * Math.PI) / 180 / 10_000, 6);
    }
  });
});

describe("contains", () => {
  it("counts the boundary as inside and a millimetre beyond it as outside", () => {
    const edge = north(HOME, 1_000);
    const d = haversineMeters(HOME, edge);
    expect(d).toBeCloseTo(1_000, 6);
    // The fence's radius is exactly the computed distance of the point: the boundary.
    expect(contains(fence("g", HOME, d), edge)).toBe(true);
    expect(contains(fence("g", HOME, d), north(HOME, d + 0.001))).toBe(false);
    expect(contains(fence("g", HOME, 1_000), north(HOME, 999.999))).toBe(true);
    expect(contains(fence("g", HOME, 1_000), north(HOME, 1_000.001))).toBe(false);
  });

  it("works across the antimeridian", () => {
    const f = fence("g", { latitude: 0, longitude: 179.9995 }, 200);
    expect(contains(f, { latitude: 0, longitude: -179.9995 })).toBe(true);
    expect(contains(f, { latitude: 0, longitude: -179.99 })).toBe(false);
  });

  it("works at the poles with any longitude", () => {
    const f = fence("g", { latitude: 90, longitude: 0 }, 50);
    for (const lon of [-180, -135, -0.5, 0, 60, 179.9999, 180]) expect(contains(f, { latitude: 89.9999, longitude: lon })).toBe(true);
    expect(contains(f, { latitude: 89.999, longitude: 10 })).toBe(false);
    const south = fence("s", { latitude: -90, longitude: 123 }, 50);
    expect(contains(south, { latitude: -89.9999, longitude: -57 })).toBe(true);
  });
});

describe("isAfter", () => {
  const cursor = { timestamp: at(10), id: pid(5) };
  it("orders by timestamp, then id", () => {
    expect(isAfter({ timestamp: at(10), id: pid(5) }, null)).toBe(true);
    expect(isAfter({ timestamp: at(11), id: pid(1) }, cursor)).toBe(true);
    expect(isAfter({ timestamp: at(9), id: pid(9) }, cursor)).toBe(false);
    expect(isAfter({ timestamp: at(10), id: pid(6) }, cursor)).toBe(true);
    expect(isAfter({ timestamp: at(10), id: pid(5) }, cursor)).toBe(false);
    expect(isAfter({ timestamp: at(10), id: pid(4) }, cursor)).toBe(false);
  });
  it("compares timestamps by time, not identity, to the millisecond", () => {
    expect(isAfter({ timestamp: new Date(T0 + 10_000), id: pid(5) }, cursor)).toBe(false);
    expect(isAfter({ timestamp: new Date(T0 + 10_001), id: pid(0) }, cursor)).toBe(true);
  });
});

describe("evaluatePoints", () => {
  const g1 = fence("g1", HOME, 500);

  it("emits an entry on the first fix inside, nothing on the first fix outside", () => {
    const p = pt(1, HOME);
    const r = run([g1], [p]);
    expect(r.transitions).toEqual([{ kind: "entry", geofenceId: "g1", point: p }]);
    expect(r.inside).toEqual(new Set(["g1"]));
    expect(r.fresh).toEqual([p]);
    expect(r.stale).toEqual([]);
    expect(r.cursor).toEqual({ timestamp: p.timestamp, id: p.id });

    const q = pt(1, FAR);
    const s = run([g1], [q]);
    expect(s.transitions).toEqual([]);
    expect(s.inside.size).toBe(0);
    expect(s.cursor).toEqual({ timestamp: q.timestamp, id: q.id });
  });

  it("enters at exactly the radius and exits a millimetre beyond", () => {
    const edge = north(HOME, 500);
    const g = fence("g", HOME, haversineMeters(HOME, edge));
    const a = pt(1, edge);
    const b = pt(2, north(HOME, g.radius + 0.001));
    expect(summary(run([g], [a, b]))).toEqual([`entry:g@${a.id}`, `exit:g@${b.id}`]);
  });

  it("stays inside while inside: no repeated entries", () => {
    const r = run([g1], [pt(1, HOME), pt(2, north(HOME, 100)), pt(3, north(HOME, 400))]);
    expect(r.transitions.map((t) => t.kind)).toEqual(["entry"]);
  });

  it("continues from the given state: inside → outside is an exit", () => {
    const p = pt(1, FAR);
    const r = run([g1], [p], { inside: ["g1"] });
    expect(r.transitions).toEqual([{ kind: "exit", geofenceId: "g1", point: p }]);
    expect(r.inside.size).toBe(0);
  });

  it("exits a fence it is inside even when the candidate search no longer returns it", () => {
    const p = pt(1, FAR);
    const r = evaluatePoints({ cursor: null, inside: new Set(["g1"]), points: [p], candidates: () => [], shapes: new Map([["g1", g1]]) });
    expect(summary(r)).toEqual([`exit:g1@${p.id}`]);
    // And a fence entered through a candidate earlier in the batch is exited by a later point outside the box.
    const a = pt(2, HOME);
    const b = pt(3, FAR);
    const s = evaluatePoints({ cursor: null, inside: new Set(), points: [a, b], candidates: (x) => (x === a ? [g1] : []), shapes: new Map() });
    expect(summary(s)).toEqual([`entry:g1@${a.id}`, `exit:g1@${b.id}`]);
  });

  it("ignores candidates that do not contain the point (the search may return a superset)", () => {
    const r = run([g1, fence("g2", FAR, 100)], [pt(1, HOME)]);
    expect(r.transitions.map((t) => t.geofenceId)).toEqual(["g1"]);
  });

  it("a batch that goes in and out emits entry, then exit", () => {
    const out1 = pt(1, FAR);
    const in1 = pt(2, HOME);
    const in2 = pt(3, north(HOME, 10));
    const out2 = pt(4, FAR);
    const r = run([g1], [out1, in1, in2, out2]);
    expect(summary(r)).toEqual([`entry:g1@${in1.id}`, `exit:g1@${out2.id}`]);
    expect(r.inside.size).toBe(0);
    expect(r.fresh).toEqual([out1, in1, in2, out2]);
    expect(r.cursor).toEqual({ timestamp: out2.timestamp, id: out2.id });
  });

  it("sorts out-of-order input by timestamp", () => {
    const a = pt(1, HOME);
    const b = pt(2, FAR);
    const c = pt(3, HOME);
    const r = run([g1], [c, a, b]);
    expect(r.fresh).toEqual([a, b, c]);
    expect(summary(r)).toEqual([`entry:g1@${a.id}`, `exit:g1@${b.id}`, `entry:g1@${c.id}`]);
    expect(r.cursor?.id).toBe(c.id);
  });

  it("breaks timestamp ties by id", () => {
    const inside = pt(5, HOME, pid(200));
    const outside = pt(5, FAR, pid(100));
    // Same instant: the smaller id comes first, so the trackable ends inside.
    const r = run([g1], [inside, outside]);
    expect(r.fresh.map((p) => p.id)).toEqual([pid(100), pid(200)]);
    expect(summary(r)).toEqual([`entry:g1@${pid(200)}`]);
    expect(r.cursor).toEqual({ timestamp: at(5), id: pid(200) });
  });

  describe("stale points change nothing", () => {
    const cursor = { timestamp: at(100), id: pid(500) };

    it("older than the cursor", () => {
      const old = pt(50, HOME);
      const r = run([g1], [old], { cursor, inside: [] });
      expect(r.stale).toEqual([old]);
      expect(r.fresh).toEqual([]);
      expect(r.transitions).toEqual([]);
      expect(r.inside.size).toBe(0);
      expect(r.cursor).toBe(cursor);
    });

    it("equal to the cursor, or at its timestamp with a smaller id", () => {
      const same = pt(100, HOME, pid(500));
      const smaller = pt(100, HOME, pid(499));
      const r = run([g1], [same, smaller], { cursor, inside: [] });
      expect(r.stale).toEqual([smaller, same]);
      expect(r.transitions).toEqual([]);
      // At the cursor's timestamp with a larger id, the point is fresh.
      const larger = pt(100, HOME, pid(501));
      expect(summary(run([g1], [larger], { cursor }))).toEqual([`entry:g1@${pid(501)}`]);
    });

    it("older than an earlier point of the same batch only when equal to it (a duplicate)", () => {
      // Sorted, a batch's points are each after the previous one, except exact duplicates of (timestamp, id).
      const a = pt(200, HOME, pid(600));
      const dup = { ...a, latitude: FAR.latitude };
      const r = run([g1], [a, dup]);
      expect(r.fresh).toHaveLength(1);
      expect(r.stale).toHaveLength(1);
      expect(r.transitions.map((t) => t.kind)).toEqual(["entry"]);
      expect(r.inside).toEqual(new Set(["g1"]));
    });

    it("mixed with fresh ones, keeps the state of the fresh ones", () => {
      const old = pt(10, FAR);
      const fresh = pt(150, HOME);
      const r = run([g1], [fresh, old], { cursor, inside: [] });
      expect(r.stale).toEqual([old]);
      expect(r.fresh).toEqual([fresh]);
      expect(summary(r)).toEqual([`entry:g1@${fresh.id}`]);
      // An older point outside does not exit a fence the trackable is inside.
      const s = run([g1], [pt(10, FAR)], { cursor, inside: ["g1"] });
      expect(s.transitions).toEqual([]);
      expect(s.inside).toEqual(new Set(["g1"]));
    });
  });

  it("reassignment: a fence that stops applying is dropped without an exit; re-added, it is entered again", () => {
    // Unassigned while inside: its shape is gone, the point would be outside, yet nothing is emitted.
    const a = pt(1, FAR);
    const dropped = evaluatePoints({ cursor: null, inside: new Set(["g1"]), points: [a], candidates: () => [], shapes: new Map() });
    expect(dropped.transitions).toEqual([]);
    expect(dropped.inside.size).toBe(0);
    // Even with no fresh point at all.
    const none = evaluatePoints({ cursor: null, inside: new Set(["g1"]), points: [], candidates: () => [], shapes: new Map() });
    expect(none.inside.size).toBe(0);
    expect(none.cursor).toBeNull();
    // Assigned again, with the trackable inside: a new entry.
    const b = pt(2, HOME);
    const again = evaluatePoints({ cursor: dropped.cursor, inside: dropped.inside, points: [b], candidates: () => [g1], shapes: new Map() });
    expect(summary(again)).toEqual([`entry:g1@${b.id}`]);
    expect(again.inside).toEqual(new Set(["g1"]));
  });

  it("two overlapping fences: both entered, then exits before entries at one point, each sorted by id", () => {
    const west = fence("b-west", { latitude: 0, longitude: -0.005 }, 800);
    const east = fence("a-east", { latitude: 0, longitude: 0.005 }, 800);
    const middle = pt(1, { latitude: 0, longitude: 0 });
    const eastOnly = pt(2, { latitude: 0, longitude: 0.011 });
    const westOnly = pt(3, { latitude: 0, longitude: -0.011 });
    const r = run([west, east], [middle, eastOnly, westOnly]);
    expect(summary(r)).toEqual([
      `entry:a-east@${middle.id}`,
      `entry:b-west@${middle.id}`,
      `exit:b-west@${eastOnly.id}`,
      `exit:a-east@${westOnly.id}`,
      `entry:b-west@${westOnly.id}`,
    ]);
    expect(r.inside).toEqual(new Set(["b-west"]));
  });

  it("a candidate listed twice is entered once", () => {
    const r = evaluatePoints({ cursor: null, inside: new Set(), points: [pt(1, HOME)], candidates: () => [g1, g1], shapes: new Map() });
    expect(r.transitions).toHaveLength(1);
  });

  it("does not modify its inputs", () => {
    const inside = new Set(["g1", "gone"]);
    const points = [pt(2, FAR), pt(1, HOME)];
    const order = points.map((p) => p.id);
    const shapes = new Map([["g1", g1]]);
    const r = evaluatePoints({ cursor: null, inside, points, candidates: () => [fence("g9", HOME, 10)], shapes });
    expect(inside).toEqual(new Set(["g1", "gone"]));
    expect(points.map((p) => p.id)).toEqual(order);
    expect([...shapes.keys()]).toEqual(["g1"]);
    expect(r.inside).not.toBe(inside);
  });

  it("keeps the caller's point type in its results", () => {
    const p = { ...pt(1, HOME), battery: 42 };
    const r = evaluatePoints({ cursor: null, inside: new Set(), points: [p], candidates: () => [g1], shapes: new Map() });
    expect(r.transitions[0]!.point.battery).toBe(42);
    expect(r.fresh[0]!.battery).toBe(42);
  });
});

describe("noise rules", () => {
  const g = (settings: Partial<FenceShape> = {}): FenceShape => ({ ...fence("g", HOME, 500), ...settings });
  const IN = north(HOME, 100);
  const JUST_OUT = north(HOME, 520); // 20 m outside
  const OUT = north(HOME, 700); // 200 m outside
  const kinds = (r: ReturnType<typeof evaluatePoints>) => r.transitions.map((t) => `${t.kind}@${(t.at ?? t.point).id}>${t.point.id}`);
  const runWith = (f: FenceShape, points: EvalPoint[], opts: { inside?: boolean; memory?: FenceMemory } = {}) =>
    evaluatePoints({
      cursor: null,
      inside: new Set(opts.inside ? ["g"] : []),
      memory: opts.memory ? new Map([["g", opts.memory]]) : undefined,
      points,
      candidates: () => [f],
      shapes: new Map([["g", f]]),
    });

  describe("exitBuffer", () => {
    it("once inside, exits only beyond the buffer; entry is unchanged", () => {
      const f = g({ exitBuffer: 50 });
      const [a, b, c] = [pt(1, IN), pt(2, JUST_OUT), pt(3, OUT)];
      const r = runWith(f, [a, b, c]);
      expect(kinds(r)).toEqual([`entry@${a.id}>${a.id}`, `exit@${c.id}>${c.id}`]);
      // Entry needs the point inside the fence itself, not within the buffer.
      expect(runWith(f, [pt(4, JUST_OUT)]).transitions).toEqual([]);
    });
    it("works for polygons, by the distance to the nearest edge", () => {
      const square = { type: "Polygon" as const, coordinates: [[[13.4, 52.51], [13.41, 52.51], [13.41, 52.52], [13.4, 52.52], [13.4, 52.51]]] as [number, number][][] };
      const f: FenceShape = { id: "g", latitude: 52.515, longitude: 13.405, radius: 700, geometry: square, exitBuffer: 50 };
      const [a, b, c] = [pt(1, { latitude: 52.515, longitude: 13.405 }), pt(2, { latitude: 52.5203, longitude: 13.405 }), pt(3, { latitude: 52.5206, longitude: 13.405 })];
      // 52.5203 is ~33 m north of the edge (within the buffer); 52.5206 is ~67 m (beyond it).
      expect(kinds(runWith(f, [a, b, c]))).toEqual([`entry@${a.id}>${a.id}`, `exit@${c.id}>${c.id}`]);
    });
  });

  describe("debounceSeconds", () => {
    const f = g({ debounceSeconds: 60 });
    it("emits once the trackable stayed on the new side that long, dated at the first new-side point", () => {
      const [a, b, c] = [pt(0, IN), pt(30, IN), pt(60, IN)];
      const r = runWith(f, [a, b, c]);
      expect(kinds(r)).toEqual([`entry@${a.id}>${c.id}`]);
      expect(r.transitions[0]!.at).toBe(a);
      expect(r.memory.get("g")).toEqual({ enteredAt: a.timestamp, dwelt: false, pending: null });
    });
    it("an excursion shorter than the debounce emits nothing", () => {
      const r = runWith(f, [pt(0, IN), pt(30, IN), pt(59, FAR), pt(120, FAR)]);
      expect(r.transitions).toEqual([]);
      expect(r.inside.size).toBe(0);
      const out = runWith(f, [pt(0, FAR), pt(30, FAR), pt(50, IN), pt(200, IN)], { inside: true, memory: { ...NO_MEMORY, enteredAt: at(-100) } });
      expect(out.transitions).toEqual([]);
      expect(out.inside).toEqual(new Set(["g"]));
    });
    it("carries a pending crossing across batches (the memory), and an exit's visit length", () => {
      const a = pt(0, IN);
      const first = runWith(f, [a]);
      expect(first.transitions).toEqual([]);
      expect(first.memory.get("g")!.pending).toBe(a);
      const b = pt(61, IN);
      const second = runWith(f, [b], { memory: first.memory.get("g")! });
      expect(kinds(second)).toEqual([`entry@${a.id}>${b.id}`]);
      const [c, d] = [pt(100, FAR), pt(200, FAR)];
      const third = runWith(f, [c, d], { inside: true, memory: second.memory.get("g")! });
      expect(third.transitions).toEqual([{ kind: "exit", geofenceId: "g", point: d, at: c, since: a.timestamp }]);
    });
  });

  describe("dwellSeconds", () => {
    const f = g({ dwellSeconds: 300 });
    it("emits geofence.dwell once per visit, by the first point at least dwellSeconds after the entry", () => {
      const pts = [pt(0, IN), pt(299, IN), pt(301, IN), pt(900, IN), pt(1000, FAR), pt(1100, IN), pt(1500, IN)];
      const r = runWith(f, pts);
      expect(r.transitions.map((t) => [t.kind, t.point.id, t.dwellSeconds])).toEqual([
        ["entry", pts[0]!.id, undefined],
        ["dwell", pts[2]!.id, 301],
        ["exit", pts[4]!.id, undefined],
        ["entry", pts[5]!.id, undefined],
        ["dwell", pts[6]!.id, 400],
      ]);
    });
    it("with a debounce, counts from the entry's occurred_at (the first inside point)", () => {
      const h = g({ dwellSeconds: 30, debounceSeconds: 60 });
      const [a, b] = [pt(0, IN), pt(60, IN)];
      expect(runWith(h, [a, b]).transitions.map((t) => [t.kind, t.dwellSeconds])).toEqual([["entry", undefined], ["dwell", 60]]);
    });
    it("does not dwell twice across batches", () => {
      const r = runWith(f, [pt(2000, IN)], { inside: true, memory: { enteredAt: at(0), dwelt: true, pending: null } });
      expect(r.transitions).toEqual([]);
    });
  });

  describe("maxAccuracy", () => {
    const f = g({ maxAccuracy: 50 });
    it("a point less accurate than the limit neither enters nor leaves; without accuracy it counts", () => {
      expect(runWith(f, [{ ...pt(0, IN), accuracy: 51 }]).transitions).toEqual([]);
      expect(runWith(f, [{ ...pt(0, IN), accuracy: 50 }]).transitions.map((t) => t.kind)).toEqual(["entry"]);
      expect(runWith(f, [pt(0, IN)]).transitions.map((t) => t.kind)).toEqual(["entry"]);
      expect(runWith(f, [{ ...pt(0, FAR), accuracy: 500 }], { inside: true }).transitions).toEqual([]);
    });
    it("does not cancel a pending crossing", () => {
      const h = g({ maxAccuracy: 50, debounceSeconds: 60 });
      const a = pt(0, IN);
      const r = runWith(h, [a, { ...pt(30, FAR), accuracy: 900 }, pt(60, IN)]);
      expect(r.transitions.map((t) => [t.kind, t.at?.id])).toEqual([["entry", a.id]]);
    });
  });

  describe("confidenceOf", () => {
    it("high when the accuracy circle is wholly on the event's side, low when it straddles, null when unknown", () => {
      const f = g();
      expect(confidenceOf("entry", f, { ...IN, accuracy: 399 })).toBe("high");
      expect(confidenceOf("entry", f, { ...IN, accuracy: 401 })).toBe("low");
      expect(confidenceOf("exit", f, { ...OUT, accuracy: 199 })).toBe("high");
      expect(confidenceOf("exit", f, { ...OUT, accuracy: 201 })).toBe("low");
      expect(confidenceOf("entry", f, { ...IN, accuracy: null })).toBeNull();
      const square = { type: "Polygon" as const, coordinates: [[[0, 0], [0.01, 0], [0.01, 0.01], [0, 0.01], [0, 0]]] as [number, number][][] };
      const p: FenceShape = { id: "p", latitude: 0.005, longitude: 0.005, radius: 800, geometry: square };
      // The centre is ~556 m from every edge.
      expect(confidenceOf("entry", p, { latitude: 0.005, longitude: 0.005, accuracy: 500 })).toBe("high");
      expect(confidenceOf("entry", p, { latitude: 0.005, longitude: 0.005, accuracy: 600 })).toBe("low");
    });
  });
});
