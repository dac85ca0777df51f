// Memory of a big fan-out: an account with ENDPOINTS endpoints subscribed to location.updated
// receives POINTS points in batches of 1,000, on the built app with the embedded database (PGlite). The server's
// resident memory (its process tree, from /proc) is sampled every 200 ms: the baseline is the same server idle,
// after its set-up, in the same run; the script prints the peak and the deliveries received in the window.
//
//   npx tsx bench/fanout-memory.ts [endpoints=50] [points=2000] [seconds=90]
import { buildIfStale } from "@/scripts/build";
import { startServer } from "@/tests/harness/server";
import { startReceiver } from "@/tests/support/receiver";
import { fmt, provisionKey, serverRssMb } from "./lib";

const [endpoints = 50, points = 2000, seconds = 90] = process.argv.slice(2).map(Number);

/** Resident memory of the server and its database process, in MB. */
const treeRssMb = (pid: number): number => serverRssMb(pid).total;

buildIfStale();
const receiver = await startReceiver();
const app = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: "true", DATABASE_URL: "" } });
try {
  const key = await provisionKey(app, `fanout-${Date.now()}`, "enterprise");
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${app.baseUrl}/api/v1${path}`, { method, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  for (let i = 0; i < endpoints; i++) {
    const res = await api("POST", "/webhooks", { url: `${receiver.url}?e=${i}`, events: ["location.updated"] });
    if (res.status !== 201) throw new Error(`endpoint: ${res.status} ${await res.text()}`);
  }
  const t = (await (await api("POST", "/trackables", { name: "Fan-out" })).json()) as { id: string };
  await new Promise((r) => setTimeout(r, 2000));
  const baseline = treeRssMb(app.process.pid!);

  const t0 = Date.parse("2026-11-22T05:00:00.000Z");
  for (let start = 0; start < points; start += 1000) {
    const locations = Array.from({ length: Math.min(1000, points - start) }, (_, i) => ({
      latitude: 40 + (start + i) / 100_000,
      longitude: 3,
      timestamp: new Date(t0 + (start + i) * 1000).toISOString(),
    }));
    const res = await api("POST", `/trackables/${t.id}/locations`, { locations });
    if (res.status !== 201) throw new Error(`batch: ${res.status} ${await res.text()}`);
  }
  let peak = baseline;
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end && app.process.exitCode === null) {
    peak = Math.max(peak, treeRssMb(app.process.pid!));
    await new Promise((r) => setTimeout(r, 200));
  }
  const last = treeRssMb(app.process.pid!);
  console.log(`${endpoints} endpoints × ${points} points (${fmt(endpoints * points)} deliveries), ${seconds} s window, PGlite`);
  console.log(`server RSS: idle baseline ${fmt(baseline)} MB, peak ${fmt(peak)} MB (+${fmt(peak - baseline)} MB), at the end ${fmt(last)} MB`);
  console.log(`deliveries received in the window: ${fmt(receiver.received.length)}`);
  if (app.process.exitCode !== null) console.log(`the server exited (${app.process.exitCode})`);
} finally {
  await app.stop();
  await receiver.close();
}
