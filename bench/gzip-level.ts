// What gzipping a location post's reply costs: the reply to a batch of N points (the stored points, as POST
// /api/v1/trackables/{id}/locations answers them), compressed by zlib's gzip in libuv's pool at level 6 (zlib's
// default: how the app server compressed it before, the baseline) beside the synchronous gzip at levels 6, 3 and 1,
// alternated; the CPU of this process per reply (the pool's threads included) and the bytes sent.
// Usage: npx tsx bench/gzip-level.ts [points=100] [replies=2000] [rounds=3]
import { promisify } from "node:util";
import { gzip, gzipSync } from "node:zlib";
import { newId } from "@/lib/db/ids";
import type { LocationRow } from "@/lib/db/schema";
import { serializeLocation } from "@/lib/locations/serialize";
import { fmt } from "./lib";

const points = Number(process.argv[2] ?? 100);
const replies = Number(process.argv[3] ?? 2000);
const rounds = Number(process.argv[4] ?? 3);
const gzipAsync = promisify(gzip);
/** Each way of compressing a reply: the first is the baseline. */
const WAYS: Array<{ name: string; run: (body: Buffer) => Promise<Buffer> | Buffer }> = [
  { name: "in libuv's pool, level 6 (zlib's default)", run: (body) => gzipAsync(body, { level: 6 }) },
  { name: "in libuv's pool, level 3", run: (body) => gzipAsync(body, { level: 3 }) },
  { name: "synchronous, level 6", run: (body) => gzipSync(body, { level: 6 }) },
  { name: "synchronous, level 3", run: (body) => gzipSync(body, { level: 3 }) },
  { name: "synchronous, level 1", run: (body) => gzipSync(body, { level: 1 }) },
];

/** A phone's buffered upload: fixes 2 s apart along a street, with speed and battery, as the bench's batches are. */
function reply(n: number): Buffer {
  const receivedAt = new Date();
  const trackableId = newId();
  const rows: LocationRow[] = Array.from({ length: n }, (_, i) => ({
    id: newId(),
    trackableId,
    latitude: 52.52 + i * 0.000123,
    longitude: 13.405 + i * 0.0000567,
    accuracy: 4 + (i % 7),
    altitude: 34 + (i % 5) * 0.5,
    speed: 11 + (i % 9) * 0.37,
    heading: (i * 13) % 360,
    battery: 0.87,
    timestamp: new Date(receivedAt.getTime() - (n - i) * 2000),
    receivedAt,
    source: "api",
  }));
  return Buffer.from(JSON.stringify({ data: rows.map(serializeLocation) }));
}

async function main() {
  const body = reply(points);
  const results = WAYS.map(() => ({ cpuUs: [] as number[], bytes: 0 }));
  for (let r = 0; r < rounds; r++) {
    for (const [w, way] of WAYS.entries()) {
      // Sixteen at once, as sixteen clients' replies are: libuv's pool (4 threads) runs those side by side.
      const before = process.cpuUsage();
      for (let i = 0; i < replies; i += 16) {
        const out = await Promise.all(Array.from({ length: Math.min(16, replies - i) }, () => way.run(body)));
        results[w]!.bytes = out[0]!.length;
      }
      const used = process.cpuUsage(before);
      results[w]!.cpuUs.push((used.user + used.system) / replies);
    }
  }
  console.log(`gzip of a ${fmt(points)}-point batch's reply (${fmt(body.length)} bytes of JSON), ${fmt(replies)} replies a run, ${rounds} runs alternated:`);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const base = results[0]!;
  for (const [w, way] of WAYS.entries()) {
    const { cpuUs, bytes } = results[w]!;
    console.log(
      `  ${way.name.padEnd(42)} CPU ${cpuUs.map((x) => fmt(x, 0)).join(" / ")} µs a reply (median ${fmt(median(cpuUs), 0)}, ` +
        `${fmt(median(cpuUs) / median(base.cpuUs), 2)} ×), ${fmt(bytes)} bytes (${fmt(bytes / base.bytes, 3)} ×)`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
