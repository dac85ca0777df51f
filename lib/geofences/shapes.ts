// Geofence shapes: circles and GeoJSON polygons. Validation, the summary circle a polygon is indexed by, and the exact
// per-shape tests (containment, distance from the boundary). Pure and free of server code, so the browser's editor
// can use the same rules; the geometry itself comes from Turf (validity), point-in-polygon-hao (containment, the test
// Turf runs) and cheap-ruler (distances to an edge).
import pointInPolygon from "point-in-polygon-hao";
import CheapRuler from "cheap-ruler";
import { booleanPointOnLine } from "@turf/boolean-point-on-line";
import { centerOfMass } from "@turf/center-of-mass";
import { lineString, point, polygon as turfPolygon } from "@turf/helpers";
import { kinks } from "@turf/kinks";
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

const sameXY = (a: readonly number[], b: readonly number[]) => a[0] === b[0] && a[1] === b[1];

/** The edges (by starting position) of `ring` that pass through `at`: where a crossing found by Turf lies. */
function edgesThrough(ring: readonly [number, number][], at: [number, number]): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < ring.length; i++) {
    if (sameXY(ring[i]!, ring[i + 1]!)) continue;
    if (booleanPointOnLine(point(at), lineString([ring[i]!, ring[i + 1]!]), { epsilon: 1e-12 })) out.push(i);
  }
  return out;
}

/** Whether every position lies on one straight line (in longitude/latitude): a ring that encloses no area. */
function collinear(ring: readonly [number, number][]): boolean {
  const a = ring[0]!;
  const b = ring.find((p) => !sameXY(p, a));
  if (!b) return true;
  return ring.every((c) => orient2d(a[0], a[1], b[0], b[1], c[0], c[1]) === 0);
}

const edgeName = (ring: number, i: number) => `coordinates[${ring}][${i}]→[${i + 1}]`;
const fmt = (p: readonly number[]) => `[${p[0]}, ${p[1]}]`;

/**
 * Every problem of a polygon's rings, each naming the ring and position (paths relative to the geometry). Checks the
 * structure (closed rings of ≥ 4 [lon, lat] positions, ≤ MAX_POLYGON_POSITIONS in all, each ring within 180° of
 * longitude), then non-zero area and self-intersection (within a ring and between rings).
 */
export function polygonIssues(rings: readonly (readonly [number, number][])[]): Issue[] {
  const issues: Issue[] = [];
  const total = rings.reduce((n, r) => n + r.length, 0);
  if (total > MAX_POLYGON_POSITIONS) {
    issues.push({ path: ["coordinates"], message: `must have at most ${MAX_POLYGON_POSITIONS} positions in all (has ${total})` });
    return issues;
  }
  rings.forEach((ring, r) => {
    const what = r === 0 ? "the outer ring" : `hole ${r}`;
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
    const lons = ring.map((p) => p[0]);
    const span = Math.max(...lons) - Math.min(...lons);
    if (span > 180) {
      const west = lons.indexOf(Math.min(...lons));
      const east = lons.indexOf(Math.max(...lons));
      issues.push({
        path: ["coordinates", r],
        message: `${what} spans ${span}° of longitude (positions ${west} and ${east}); at most 180° (split a fence across the antimeridian in two)`,
      });
      return;
    }
    if (collinear(ring)) {
      issues.push({ path: ["coordinates", r], message: `${what} has zero area (its positions are collinear or repeated)` });
      return;
    }
    const crossing = kinks(turfPolygon([ring.map((p) => [...p])])).features[0];
    if (crossing) {
      const at = crossing.geometry.coordinates as [number, number];
      const edges = edgesThrough(ring, at);
      const between = edges.length >= 2 ? `: edge ${edgeName(r, edges[0]!)} crosses edge ${edgeName(r, edges[1]!)}` : "";
      issues.push({ path: ["coordinates", r], message: `${what} intersects itself at ${fmt(at)}${between}` });
    }
  });
  if (issues.length > 0) return issues;
  // Rings are each simple: now no two may cross or touch.
  for (let a = 0; a < rings.length; a++) {
    for (let b = a + 1; b < rings.length; b++) {
      const pair = kinks({ type: "MultiLineString", coordinates: [rings[a]!.map((p) => [...p]), rings[b]!.map((p) => [...p])] }).features;
      const hit = pair.find((f) => {
        // kinks also reports each ring's own closing vertex in a MultiLineString; keep only points on both rings.
        const at = f.geometry.coordinates as [number, number];
        return edgesThrough(rings[a]!, at).length > 0 && edgesThrough(rings[b]!, at).length > 0;
      });
      if (hit) {
        const at = hit.geometry.coordinates as [number, number];
        const ea = edgesThrough(rings[a]!, at)[0]!;
        const eb = edgesThrough(rings[b]!, at)[0]!;
        issues.push({
          path: ["coordinates", b],
          message: `ring ${b} touches or crosses ring ${a} at ${fmt(at)}: edge ${edgeName(b, eb)} meets edge ${edgeName(a, ea)}`,
        });
      }
    }
  }
  return issues;
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
      "ring may intersect itself or another ring, and each must enclose a non-zero area. Either winding order is " +
      "accepted. Edges are straight lines in longitude/latitude, as GeoJSON defines them.",
    example: {
      type: "Polygon",
      coordinates: [[[13.4, 52.52], [13.41, 52.52], [13.41, 52.53], [13.4, 52.53], [13.4, 52.52]]],
    },
  });

/** The circle a polygon is summarised and indexed by: its centroid, and the distance to its farthest vertex. */
export function polygonSummary(geometry: PolygonGeometry): LatLon & { radius: number } {
  const [longitude, latitude] = centerOfMass(turfPolygon(geometry.coordinates)).geometry.coordinates as [number, number];
  const centre = { latitude, longitude };
  let radius = 0;
  for (const [lon, lat] of geometry.coordinates[0]!) radius = Math.max(radius, haversineMeters(centre, { latitude: lat, longitude: lon }));
  return { latitude, longitude, radius };
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
