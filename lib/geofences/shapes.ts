// Geofence shapes: circles and GeoJSON polygons. Validation, the summary circle a polygon is indexed by, and the exact
// per-shape tests (containment, distance from the boundary). Pure and free of server code, so the browser's editor
// can use the same rules; validity is a sweep over the edges with exact orient2d signs (robust-predicates),
// containment point-in-polygon-hao (the test Turf runs), distances to an edge cheap-ruler, the centroid Turf.
import pointInPolygon from "point-in-polygon-hao";
import CheapRuler from "cheap-ruler";
import Flatbush from "flatbush";
import { centerOfMass } from "@turf/center-of-mass";
import { polygon as turfPolygon } from "@turf/helpers";
import { orient2d } from "robust-predicates";
import { z } from "zod";
import { haversineMeters, type LatLon } from "./haversine";

export const MAX_POLYGON_POSITIONS = 2000;
export const SHAPES = ["circle", "polygon"] as const;
export type Shape = (typeof SHAPES)[number];

/** A GeoJSON Polygon: an outer ring then holes, each a closed list of [longitude, latitude]. */
export interface PolygonGeometry {
  type: "Polygon";
  coordinates: [number, number][][];
}

type Issue = { path: (string | number)[]; message: string };
type Ring = [number, number][];

const sameXY = (a: readonly number[], b: readonly number[]) => a[0] === b[0] && a[1] === b[1];

/** Whether every position lies on one straight line (in longitude/latitude): a ring that encloses no area. */
function collinear(ring: Ring): boolean {
  const a = ring[0]!;
  const b = ring.find((p) => !sameXY(p, a));
  if (!b) return true;
  return ring.every((c) => orient2d(a[0], a[1], b[0], b[1], c[0], c[1]) === 0);
}

/** Rounded to 7 decimals (about 1 cm in degrees): computed coordinates without float noise such as 13.405000000000001. */
const round7 = (x: number) => Math.round(x * 1e7) / 1e7;

const edgeName = (ring: number, i: number) => `coordinates[${ring}][${i}]→[${i + 1}]`;
const fmt = (p: readonly number[]) => `[${p[0]}, ${p[1]}]`;

/** An edge of a ring: `edge` is the index of its first position, so it runs from [edge] to [edge + 1]. */
export interface EdgeRef {
  ring: number;
  edge: number;
}

/** How two edges meet: crossing at one interior point, lying along each other, or touching at a point. */
type ContactKind = "crosses" | "overlaps" | "touches";

const within = (v: number, a: number, b: number) => (a < b ? a <= v && v <= b : b <= v && v <= a);
const onSegment = (x: number, y: number, ax: number, ay: number, bx: number, by: number) =>
  within(x, ax, bx) && within(y, ay, by);

/**
 * Whether closed segments a–b and c–d share a point, exactly (orient2d's signs). Collinear segments share one when
 * their boxes overlap; otherwise neither segment may lie strictly on one side of the other's line.
 */
function segmentsMeet(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = orient2d(cx, cy, dx, dy, ax, ay);
  const d2 = orient2d(cx, cy, dx, dy, bx, by);
  if ((d1 > 0 && d2 > 0) || (d1 < 0 && d2 < 0)) return false;
  const d3 = orient2d(ax, ay, bx, by, cx, cy);
  const d4 = orient2d(ax, ay, bx, by, dx, dy);
  if ((d3 > 0 && d4 > 0) || (d3 < 0 && d4 < 0)) return false;
  if (d1 === 0 && d2 === 0) {
    return Math.max(Math.min(ax, bx), Math.min(cx, dx)) <= Math.min(Math.max(ax, bx), Math.max(cx, dx)) &&
      Math.max(Math.min(ay, by), Math.min(cy, dy)) <= Math.min(Math.max(ay, by), Math.max(cy, dy));
  }
  return true;
}

/** Edges k and k + 1 of a ring, or its last and first, share a position by construction. */
const adjacent = (a: EdgeRef, b: EdgeRef, edges: number) =>
  a.ring === b.ring && (Math.abs(a.edge - b.edge) === 1 || Math.abs(a.edge - b.edge) === edges - 1);

/** Whether u and v lie on the same side of m, all three on one line (signs of differences are exact). */
function sameSide(ux: number, uy: number, mx: number, my: number, vx: number, vy: number): boolean {
  const sx = Math.sign(ux - mx) * Math.sign(vx - mx);
  return sx !== 0 ? sx > 0 : Math.sign(uy - my) * Math.sign(vy - my) > 0;
}

/**
 * Whether two edges meet where a valid polygon's may not: anywhere, unless they follow each other on a ring, when
 * only their shared position is allowed (they may not fold back along each other). Rings must be closed, without a
 * position repeating the one before.
 */
function edgesConflict(rings: readonly Ring[], a: EdgeRef, b: EdgeRef): boolean {
  if (a.ring === b.ring && a.edge === b.edge) return false;
  const p = rings[a.ring]![a.edge]!;
  const q = rings[a.ring]![a.edge + 1]!;
  const r = rings[b.ring]![b.edge]!;
  const s = rings[b.ring]![b.edge + 1]!;
  if (adjacent(a, b, rings[a.ring]!.length - 1)) {
    // Edges u–m and m–v fold back when u, m and v lie on one line with u and v on the same side of m.
    const forward = sameXY(q, r);
    const u = forward ? p : r;
    const m = forward ? q : s;
    const v = forward ? s : q;
    return orient2d(u[0], u[1], m[0], m[1], v[0], v[1]) === 0 && sameSide(u[0], u[1], m[0], m[1], v[0], v[1]);
  }
  return segmentsMeet(p[0], p[1], q[0], q[1], r[0], r[1], s[0], s[1]);
}

/** Lexicographic order of positions, longitude then latitude: the order the sweep meets them. */
const before = (a: readonly number[], b: readonly number[]) => a[0]! - b[0]! || a[1]! - b[1]!;

/**
 * The first pair of edges found to conflict (edgesConflict), the first in ring-then-edge order, or null: a
 * Shamos–Hoey sweep in longitude, O(n log n) for any input (testing every pair, as Turf's kinks did, took seconds at
 * 2,000 positions). The edges crossing the sweep line are kept in order of latitude and only neighbours are tested,
 * with exact orient2d signs; at each position every edge through it is tested against the others there (a valid
 * polygon has at most two, which share it as a vertex). Rings must be closed, without a position repeating the one before.
 */
export function firstConflict(rings: readonly Ring[]): [EdgeRef, EdgeRef] | null {
  const edges: { ref: EdgeRef; left: readonly number[]; right: readonly number[] }[] = [];
  rings.forEach((ring, r) => {
    for (let i = 0; i + 1 < ring.length; i++) {
      const [left, right] = before(ring[i]!, ring[i + 1]!) < 0 ? [ring[i]!, ring[i + 1]!] : [ring[i + 1]!, ring[i]!];
      edges.push({ ref: { ring: r, edge: i }, left, right });
    }
  });
  const starts = edges.map((_, k) => k).sort((a, b) => before(edges[a]!.left, edges[b]!.left));
  const ends = edges.map((_, k) => k).sort((a, b) => before(edges[a]!.right, edges[b]!.right));
  // +1 when the position lies above the edge's line (left of left→right), 0 on it, -1 below.
  const side = (k: number, p: readonly number[]) => {
    const { left, right } = edges[k]!;
    return -Math.sign(orient2d(left[0]!, left[1]!, right[0]!, right[1]!, p[0]!, p[1]!));
  };
  const conflict = (a: number, b: number): [EdgeRef, EdgeRef] | null => {
    const x = edges[a]!.ref;
    const y = edges[b]!.ref;
    if (!edgesConflict(rings, x, y)) return null;
    return x.ring < y.ring || (x.ring === y.ring && x.edge < y.edge) ? [x, y] : [y, x];
  };
  // The edges the sweep line crosses, from south to north; `bound` finds where `at` would go among them.
  const line: number[] = [];
  const bound = (at: readonly number[], strict: boolean) => {
    let lo = 0;
    let hi = line.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const sd = side(line[mid]!, at);
      if (strict ? sd < 0 : sd <= 0) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  let s = 0;
  let e = 0;
  const starting: number[] = [];
  while (s < starts.length || e < ends.length) {
    const at =
      e >= ends.length || (s < starts.length && before(edges[starts[s]!]!.left, edges[ends[e]!]!.right) <= 0)
        ? edges[starts[s]!]!.left
        : edges[ends[e]!]!.right;
    starting.length = 0;
    while (s < starts.length && before(edges[starts[s]!]!.left, at) === 0) starting.push(starts[s++]!);
    let ending = 0;
    while (e < ends.length && before(edges[ends[e]!]!.right, at) === 0) {
      e++;
      ending++;
    }
    // The edges on the line through `at` (ending there or passing it), then those starting there: any two conflict
    // unless they are consecutive edges of a ring meeting at `at`.
    const lower = bound(at, false);
    const upper = bound(at, true);
    const on = upper - lower;
    for (let i = 0; i < on + starting.length; i++) {
      for (let j = i + 1; j < on + starting.length; j++) {
        const found = conflict(i < on ? line[lower + i]! : starting[i - on]!, j < on ? line[lower + j]! : starting[j - on]!);
        if (found) return found;
      }
    }
    // No conflict: what passes through `at` ends there.
    if (on !== ending) throw new Error("polygon sweep: an edge passes through a position without meeting its edges");
    starting.sort((a, b) => -side(a, edges[b]!.right)); // southern first
    if (on === 1 && starting.length === 1) line[lower] = starting[0]!; // a ring going on through a vertex
    else line.splice(lower, on, ...starting);
    const pairs: [number, number][] =
      starting.length > 0 ? [[lower - 1, lower], [lower + starting.length - 1, lower + starting.length]] : [[lower - 1, lower]];
    for (const [i, j] of pairs) {
      if (i < 0 || j >= line.length) continue;
      const found = conflict(line[i]!, line[j]!);
      if (found) return found;
    }
  }
  return null;
}

/** Where two conflicting edges meet, for the message: their crossing point, or a position of one on the other. */
function contactOf(rings: readonly Ring[], a: EdgeRef, b: EdgeRef): { at: [number, number]; kind: ContactKind } {
  const [p, q] = [rings[a.ring]![a.edge]!, rings[a.ring]![a.edge + 1]!];
  const [r, s] = [rings[b.ring]![b.edge]!, rings[b.ring]![b.edge + 1]!];
  const d1 = orient2d(r[0], r[1], s[0], s[1], p[0], p[1]);
  const d2 = orient2d(r[0], r[1], s[0], s[1], q[0], q[1]);
  const d3 = orient2d(p[0], p[1], q[0], q[1], r[0], r[1]);
  const d4 = orient2d(p[0], p[1], q[0], q[1], s[0], s[1]);
  if (d1 !== 0 && d2 !== 0 && d3 !== 0 && d4 !== 0) {
    const t = d1 / (d1 - d2);
    return { at: [round7(p[0] + t * (q[0] - p[0])), round7(p[1] + t * (q[1] - p[1]))], kind: "crosses" };
  }
  const kind: ContactKind = d1 === 0 && d2 === 0 ? "overlaps" : "touches";
  // A position of one edge on the other, other than the one adjacent edges share.
  const shared = adjacent(a, b, rings[a.ring]!.length - 1);
  const onB = (v: readonly number[]) => onSegment(v[0]!, v[1]!, r[0], r[1], s[0], s[1]) && orient2d(r[0], r[1], s[0], s[1], v[0]!, v[1]!) === 0;
  const onA = (v: readonly number[]) => onSegment(v[0]!, v[1]!, p[0], p[1], q[0], q[1]) && orient2d(p[0], p[1], q[0], q[1], v[0]!, v[1]!) === 0;
  const isShared = (v: readonly number[]) => shared && (sameXY(v, r) || sameXY(v, s)) && (sameXY(v, p) || sameXY(v, q));
  const found = [p, q].find((v) => !isShared(v) && onB(v)) ?? [r, s].find((v) => !isShared(v) && onA(v)) ?? p;
  return { at: [found[0]!, found[1]!], kind };
}

/**
 * Holes must lie inside the outer ring and outside each other (RFC 7946). Called once no two rings touch, so one
 * position of a hole decides on which side of each ring it lies: the parity of the ring's edges crossed by a ray
 * east from it, the edges found through a packed R-tree of their boxes rather than by walking every ring per hole.
 */
function holeIssues(rings: readonly Ring[]): Issue[] {
  const issues: Issue[] = [];
  if (rings.length < 2) return issues;
  const refs: EdgeRef[] = [];
  rings.forEach((ring, r) => {
    for (let i = 0; i + 1 < ring.length; i++) refs.push({ ring: r, edge: i });
  });
  const index = new Flatbush(refs.length);
  for (const { ring, edge } of refs) {
    const [a, b] = [rings[ring]![edge]!, rings[ring]![edge + 1]!];
    index.add(Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1]));
  }
  index.finish();
  for (let h = 1; h < rings.length; h++) {
    const p = rings[h]![0]!;
    const crossings = new Map<number, number>();
    index.search(p[0], p[1], Infinity, p[1], (k) => {
      const { ring, edge } = refs[k]!;
      const [a, b] = [rings[ring]![edge]!, rings[ring]![edge + 1]!];
      if (ring === h || a[1] > p[1] === b[1] > p[1]) return false;
      // The ray crosses this edge east of p when p lies west of it, going north (orient2d is negative to the left).
      const [south, north] = a[1] < b[1] ? [a, b] : [b, a];
      if (orient2d(south[0], south[1], north[0], north[1], p[0], p[1]) < 0) crossings.set(ring, (crossings.get(ring) ?? 0) + 1);
      return false;
    });
    const inside = (g: number) => (crossings.get(g) ?? 0) % 2 === 1;
    if (!inside(0)) {
      issues.push({ path: ["coordinates", h], message: `hole ${h} lies outside the outer ring (a hole must be inside it)` });
      continue;
    }
    const around = [...crossings.keys()].filter((g) => g > 0 && inside(g)).sort((x, y) => x - y)[0];
    if (around !== undefined) issues.push({ path: ["coordinates", h], message: `hole ${h} lies inside hole ${around} (holes may not overlap or nest)` });
  }
  return issues;
}

/**
 * Every problem of a polygon's rings, each naming the ring and position (paths relative to the geometry). Checks the
 * structure (closed rings of ≥ 4 [lon, lat] positions, ≤ MAX_POLYGON_POSITIONS in all, each ring within 180° of
 * longitude, non-zero area, no position repeating the one before), then that no ring meets itself or another
 * ring, then that each hole lies inside the outer ring and outside the other holes.
 */
export function polygonIssues(rings: readonly Ring[]): Issue[] {
  const issues: Issue[] = [];
  const total = rings.reduce((n, r) => n + r.length, 0);
  if (total > MAX_POLYGON_POSITIONS) {
    issues.push({ path: ["coordinates"], message: `must have at most ${MAX_POLYGON_POSITIONS} positions in all (has ${total})` });
    return issues;
  }
  const named = (r: number) => (r === 0 ? "the outer ring" : `hole ${r}`);
  rings.forEach((ring, r) => {
    const what = named(r);
    if (ring.length < 4) {
      issues.push({ path: ["coordinates", r], message: `${what} must have at least 4 positions (has ${ring.length})` });
      return;
    }
    if (!sameXY(ring[0]!, ring[ring.length - 1]!)) {
      issues.push({
        path: ["coordinates", r, ring.length - 1],
        message: `${what} must be closed: its last position ${fmt(ring[ring.length - 1]!)} must equal its first ${fmt(ring[0]!)}`,
      });
      return;
    }
    let west = 0;
    let east = 0;
    ring.forEach((p, i) => {
      if (p[0] < ring[west]![0]) west = i;
      if (p[0] > ring[east]![0]) east = i;
    });
    const span = ring[east]![0] - ring[west]![0];
    if (span > 180) {
      issues.push({
        path: ["coordinates", r],
        message: `${what} spans ${round7(span)}° of longitude (positions ${west} and ${east}); at most 180° (split a fence across the antimeridian in two)`,
      });
      return;
    }
    if (collinear(ring)) {
      issues.push({ path: ["coordinates", r], message: `${what} has zero area (its positions are collinear or repeated)` });
      return;
    }
    const repeat = ring.findIndex((p, k) => k > 0 && sameXY(p, ring[k - 1]!));
    if (repeat > 0) {
      issues.push({
        path: ["coordinates", r, repeat],
        message: `in ${what}, position [${repeat}] repeats position [${repeat - 1}] ${fmt(ring[repeat]!)}: remove one of them`,
      });
    }
  });
  if (issues.length > 0) return issues;

  const conflict = firstConflict(rings);
  if (conflict) {
    const [a, b] = conflict;
    const { at, kind } = contactOf(rings, a, b);
    issues.push(
      a.ring === b.ring
        ? {
            path: ["coordinates", a.ring],
            message: `${named(a.ring)} intersects itself at ${fmt(at)}: edge ${edgeName(a.ring, a.edge)} ${kind} edge ${edgeName(b.ring, b.edge)}`,
          }
        : {
            path: ["coordinates", b.ring],
            message: `ring ${b.ring} touches or crosses ring ${a.ring} at ${fmt(at)}: edge ${edgeName(b.ring, b.edge)} meets edge ${edgeName(a.ring, a.edge)}`,
          },
    );
    return issues;
  }
  return holeIssues(rings);
}

const Position = z
  .tuple([z.number().min(-180, "longitude must be between -180 and 180").max(180, "longitude must be between -180 and 180"),
    z.number().min(-90, "latitude must be between -90 and 90").max(90, "latitude must be between -90 and 90")], {
    error: "must be a position [longitude, latitude]",
  })
  .meta({ description: "[longitude, latitude], WGS84 decimal degrees (GeoJSON order)", example: [13.405, 52.52] });

export const PolygonGeometryInput = z
  .strictObject({
    type: z.literal("Polygon", { error: 'must be "Polygon"' }),
    coordinates: z
      .array(z.array(Position, { error: "must be a ring: an array of positions" }), { error: "must be an array of rings" })
      .min(1, "must hold at least the outer ring"),
  })
  .superRefine((g, ctx) => {
    // Shape rules only once every position is a valid [lon, lat] (those issues are already reported).
    const valid = (p: readonly number[]) => p.length === 2 && Math.abs(p[0]!) <= 180 && Math.abs(p[1]!) <= 90;
    if (!g.coordinates.every((ring) => Array.isArray(ring) && ring.every((p) => Array.isArray(p) && valid(p)))) return;
    for (const issue of polygonIssues(g.coordinates)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  })
  .meta({
    id: "PolygonGeometry",
    description:
      "A GeoJSON Polygon: the outer ring, then optional holes. Each ring is closed (first position = last), has at " +
      `least 4 positions and spans at most 180° of longitude; at most ${MAX_POLYGON_POSITIONS} positions in all; no ` +
      "ring may intersect or touch itself or another ring, and each must enclose a non-zero area. Each hole lies " +
      "inside the outer ring and outside every other hole (RFC 7946). A position repeating the one before it is a " +
      "400 naming it (the geometry is stored as sent, so positions in messages keep their indexes). Either winding " +
      "order is accepted. Edges are straight lines in longitude/latitude, as GeoJSON defines them.",
    example: {
      type: "Polygon",
      coordinates: [[[13.4, 52.52], [13.41, 52.52], [13.41, 52.53], [13.4, 52.53], [13.4, 52.52]]],
    },
  });

/**
 * The circle a polygon is summarised and indexed by: its centroid to 7 decimals (about 1 cm), and the distance from
 * that centre to its farthest vertex rounded up to the centimetre, so the circle still holds every vertex.
 */
export function polygonSummary(geometry: PolygonGeometry): LatLon & { radius: number } {
  const [lon, lat] = centerOfMass(turfPolygon(geometry.coordinates)).geometry.coordinates as [number, number];
  const centre = { latitude: round7(lat), longitude: round7(lon) };
  let radius = 0;
  for (const [x, y] of geometry.coordinates[0]!) radius = Math.max(radius, haversineMeters(centre, { latitude: y, longitude: x }));
  return { ...centre, radius: Math.ceil(radius * 100) / 100 };
}

/**
 * Whether two geometries (or circles' nulls) have the same rings, position by position: what JSON.stringify of both
 * compared, without writing out two strings of a polygon's 2,000 positions.
 */
export function sameGeometry(a: PolygonGeometry | null, b: PolygonGeometry | null): boolean {
  if (a === b) return true;
  if (a === null || b === null || a.type !== b.type || a.coordinates.length !== b.coordinates.length) return false;
  return a.coordinates.every((ring, r) => {
    const other = b.coordinates[r]!;
    return ring.length === other.length && ring.every((p, i) => sameXY(p, other[i]!));
  });
}

/** What the exact tests need of a geofence. */
export interface ShapeOf extends LatLon {
  /** Metres: the circle's radius, or a polygon's bounding radius (not used by the polygon tests). */
  radius: number;
  /** Null (or absent) for a circle. */
  geometry?: PolygonGeometry | null;
}

/** containsPoint's [longitude, latitude]. */
const AT: [number, number] = [0, 0];

/** Whether the point is inside the shape; the boundary (and a vertex) counts as inside, as does a hole's boundary. */
export function containsPoint(shape: ShapeOf, p: LatLon): boolean {
  if (!shape.geometry) return haversineMeters(shape, p) <= shape.radius;
  // point-in-polygon-hao, the test Turf's booleanPointInPolygon runs, without Turf's per-call wrapping (the largest
  // single allocation of an evaluation with fences): 0 on a boundary, else whether the point is inside. The point goes
  // in one reused pair (the test only reads it), not a new array per fence tested.
  AT[0] = p.longitude;
  AT[1] = p.latitude;
  const inside = pointInPolygon(AT, shape.geometry.coordinates);
  return inside === 0 || inside;
}

/**
 * The distance from the point to the polygon's nearest edge, of any ring, in metres: cheap-ruler's flat-earth
 * approximation at the point's latitude (within 0.1 % of the WGS84 ellipsoid's distance at city scale, whose radii
 * differ from the contract's sphere by up to 0.6 %; the edges are straight in longitude and latitude, as the
 * containment test takes them). It decides anything only at the scale of an exit buffer or a GPS accuracy, tens to
 * hundreds of metres, where that is centimetres; and it is ~100× cheaper than Turf's geodesic nearest point, which
 * mattered because every entry, exit and point in an exit buffer measures it.
 */
function metresToEdge(geometry: PolygonGeometry, p: LatLon): number {
  const ruler = new CheapRuler(p.latitude, "meters");
  const at: [number, number] = [p.longitude, p.latitude];
  let nearest = Infinity;
  for (const ring of geometry.coordinates) nearest = Math.min(nearest, ruler.pointOnLine(ring, at).dist);
  return nearest;
}

/**
 * The point's distance from the shape's boundary in metres, on whichever side it is: from a circle's edge (on the
 * contract's sphere), or from a polygon's nearest edge of any ring.
 */
export function metresToBoundary(shape: ShapeOf, p: LatLon): number {
  if (!shape.geometry) return Math.abs(haversineMeters(shape, p) - shape.radius);
  return metresToEdge(shape.geometry, p);
}
