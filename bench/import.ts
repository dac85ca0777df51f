// A history import's memory and speed: a generated file of SIZE MB (CSV in the export's columns, or Google Takeout
// Records.json) is streamed as one request body into POST /trackables/{id}/imports on the built app over a scratch
// Postgres database, and the import is then polled (GET) until it has ended; the server's resident memory (its
// process tree, from /proc) is sampled every 200 ms. Prints how long the upload took to be answered (202, running),
// how long the background reading took, the idle baseline and peak memory, and the points stored a second. The client
// generates the file as the server reads it; the server spools it to disk.
//
//   npx tsx bench/import.ts [sizeMb=500] [csv|takeout]
import { buildIfStale } from "@/scripts/build";
import { startServer } from "@/tests/harness/server";
import { fmt, provisionKey, scratchDatabase, serverRssMb } from "./lib";

const sizeMb = Number(process.argv[2] ?? 500);
const format = (process.argv[3] ?? "csv") as "csv" | "takeout";

/** Resident memory of the server and its database process, in MB. */
const treeRssMb = (pid: number): number => serverRssMb(pid).total;

const START = Date.parse("2020-01-01T00:00:00Z");
function row(i: number): string {
  const lat = 52.5 + Math.sin(i / 5000) * 0.1;
  const lon = 13.4 + Math.cos(i / 7000) * 0.1;
  const t = new Date(START + i * 5000).toISOString();
  if (format === "csv") return `,${t},${lat},${lon},${(i % 50) + 3},${34 + (i % 10)},${(i % 30) / 3},${i % 360},${100 - (i % 100)},api,${t}\r\n`;
  return `${i === 0 ? "" : ",\n"}{"timestamp":"${t}","latitudeE7":${Math.round(lat * 1e7)},"longitudeE7":${Math.round(lon * 1e7)},"accuracy":${(i % 50) + 3},"velocity":${i % 30},"heading":${i % 360},"altitude":${34 + (i % 10)},"source":"WIFI","platformType":"ANDROID"}`;
}

/** The file, made chunk by chunk as the request body is read: about sizeMb MB, and how many rows it held. */
function generated(): { body: ReadableStream<Uint8Array>; rows: () => number } {
  const target = sizeMb * 1024 * 1024;
  const encoder = new TextEncoder();
  let sent = 0;
  let i = 0;
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (closed) return;
      let text = sent === 0 ? (format === "csv" ? "id,timestamp,latitude,longitude,accuracy,altitude,speed,heading,battery,source,receivedAt\r\n" : '{"locations":[\n') : "";
      while (text.length < 256 * 1024 && sent + text.length < target) text += row(i++);
      if (sent + text.length >= target) {
        if (format === "takeout") text += "\n]}\n";
        closed = true;
      }
      sent += text.length;
      controller.enqueue(encoder.encode(text));
      if (closed) controller.close();
    },
  });
  return { body, rows: () => i };
}

buildIfStale();
const db = await scratchDatabase("fenceline_bench_import");
const app = await startServer({ databaseUrl: db.url, env: { RATE_LIMIT_PER_MINUTE: "1000000000" } });
try {
  const key = await provisionKey(app, "bench-import", "free");
  const headers = { Authorization: `Bearer ${key}` };
  const t = await fetch(`${app.baseUrl}/api/v1/trackables`, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify({ name: "import" }) });
  const trackableId = ((await t.json()) as { id: string }).id;
  await new Promise((r) => setTimeout(r, 1000));
  const baseline = treeRssMb(app.process.pid!);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, treeRssMb(app.process.pid!))), 200);

  const file = generated();
  const t0 = performance.now();
  const res = await fetch(`${app.baseUrl}/api/v1/trackables/${trackableId}/imports?format=${format}`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/octet-stream" },
    body: file.body,
    duplex: "half",
  } as RequestInit);
  const accepted = (await res.json()) as { id: string; status: string };
  const answered = (performance.now() - t0) / 1000;
  type Progress = { status: string; processed: number; stored: number; skipped: number };
  let result: Progress = { ...accepted, processed: 0, stored: 0, skipped: 0 };
  while (res.status === 202 && result.status === "running") {
    await new Promise((r) => setTimeout(r, 1000));
    const now = await fetch(`${app.baseUrl}/api/v1/trackables/${trackableId}/imports/${accepted.id}`, { headers });
    result = (await now.json()) as Progress;
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  console.log(`import bench (${format}, ${fmt(sizeMb)} MB, ${fmt(file.rows())} rows): HTTP ${res.status} ${accepted.status} after ${fmt(answered, 1)} s; then ${result.status}, processed ${fmt(result.processed)}, stored ${fmt(result.stored)}, skipped ${fmt(result.skipped)}`);
  console.log(`  ${fmt(seconds, 1)} s in all, ${fmt(result.stored / seconds)} points/s, upload ${fmt(sizeMb / answered, 1)} MB/s`);
  console.log(`  server RSS (process tree): idle ${fmt(baseline)} MB, peak during the import ${fmt(peak)} MB (+${fmt(peak - baseline)} MB)`);
} finally {
  await app.stop();
  await db.drop();
}
