import { parsePrometheus, total, type Sample } from "./prometheus";

/** 1,998 positions: a shell of 1,334 around (lon, lat) and 166 holes of 4 positions inside it (~54 KB of JSON). */
export function manyRings(lon: number, lat: number): number[][][] {
  const shell: number[][] = [];
  for (let i = 0; i < 1333; i++) shell.push([lon + 0.01 * Math.cos((2 * Math.PI * i) / 1333), lat + 0.01 * Math.sin((2 * Math.PI * i) / 1333)]);
  shell.push(shell[0]!);
  const holes: number[][][] = [];
  for (let k = 0; k < 166; k++) {
    const [x, y] = [lon - 0.005 + (k % 13) * 0.0007, lat - 0.005 + Math.floor(k / 13) * 0.0007];
    holes.push([[x, y], [x + 0.0003, y], [x, y + 0.0003], [x, y]]);
  }
  return [shell, ...holes];
}

/** Ten such polygons side by side. */
export const tenPolygons = () => Array.from({ length: 10 }, (_, i) => ({ type: "Polygon", coordinates: manyRings(13.3 + i * 0.03, 52.5) }));

/** Sends the bodies (already JSON text, so encoding them is not part of the burst) all at once; resolves with the replies. */
export async function sendAll(
  baseUrl: string,
  key: string,
  requests: Array<{ method: string; path: string; body: string }>,
): Promise<Array<{ status: number; text: string }>> {
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  return Promise.all(
    requests.map(async (r) => {
      const res = await fetch(`${baseUrl}/api/v1${r.path}`, { method: r.method, headers, body: r.body });
      return { status: res.status, text: await res.text() };
    }),
  );
}

/**
 * The app server's worst event-loop delay (ms) since the previous scrape of /metrics (loopback, no token): the
 * prom-client gauge nodejs_eventloop_lag_max_seconds, whose histogram every scrape resets.
 */
export async function serverLoopDelayMaxMs(baseUrl: string): Promise<number> {
  const res = await fetch(`${baseUrl}/metrics`);
  if (res.status !== 200) throw new Error(`GET /metrics: ${res.status}`);
  return total(parsePrometheus(await res.text()), "nodejs_eventloop_lag_max_seconds") * 1000;
}

/** How many large bodies the server at `base` has decoded, by where (fenceline_large_body_decode_duration_seconds_count). */
export async function largeBodyDecodes(base: string): Promise<{ thread: number; loop: number }> {
  const samples: Sample[] = parsePrometheus(await (await fetch(`${base}/metrics`)).text());
  const count = (where: string) =>
    samples.filter((s) => s.name === "fenceline_large_body_decode_duration_seconds_count" && s.labels.where === where).reduce((n, s) => n + s.value, 0);
  return { thread: count("thread"), loop: count("loop") };
}

/** GET /api/health's database checks on the server at `base` (fenceline_health_check_duration_seconds): checks per bucket bound (s). */
export async function healthChecks(base: string): Promise<Map<number, number>> {
  const samples: Sample[] = parsePrometheus(await (await fetch(`${base}/metrics`)).text());
  const buckets = new Map<number, number>();
  for (const s of samples) {
    if (s.name !== "fenceline_health_check_duration_seconds_bucket") continue;
    const le = s.labels.le === "+Inf" ? Infinity : Number(s.labels.le);
    buckets.set(le, (buckets.get(le) ?? 0) + s.value);
  }
  return buckets;
}

/** The smallest bucket bound (s) that holds every answer counted between the two readings. */
export function slowestBucket(before: Map<number, number>, after: Map<number, number>): number {
  const added = (le: number) => (after.get(le) ?? 0) - (before.get(le) ?? 0);
  const bounds = [...after.keys()].sort((a, b) => a - b);
  return bounds.find((le) => added(le) === added(Infinity)) ?? Infinity;
}
