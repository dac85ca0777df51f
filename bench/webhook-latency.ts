// Latency from `POST …/locations` returning to the receiver getting geofence.entry, on the embedded runner (PGlite,
// the default install), with 50 entry events per second sustained for a minute. Prints p50/p95/p99/max.
// Usage: npx tsx bench/webhook-latency.ts [seconds=60] [eventsPerSecond=50]
import { buildIfStale } from "@/scripts/build";
import { startServer } from "@/tests/harness/server";
import { startReceiver } from "@/tests/support/receiver";
import { fmt, provisionKey } from "./lib";

const seconds = Number(process.argv[2] ?? 60);
const rate = Number(process.argv[3] ?? 50);

async function main() {
  buildIfStale();
  const arrivals = new Map<string, number>();
  const receiver = await startReceiver({ secret: "latency-secret" });
  const app = await startServer({
    env: { WEBHOOK_ALLOW_PRIVATE_URLS: "true", RATE_LIMIT_PER_MINUTE: "1000000000", DATABASE_URL: "", REDIS_URL: "" },
  });
  try {
    const key = await provisionKey(app, "latency", "enterprise");
    const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    // One retry on a connection reset: a keep-alive socket the server closed just as the client reused it.
    const post = async (path: string, body: unknown): Promise<Response> => {
      const send = () => fetch(`${app.baseUrl}/api/v1${path}`, { method: "POST", headers, body: JSON.stringify(body) });
      try {
        return await send();
      } catch {
        return send();
      }
    };
    await post("/geofences", { name: "Zone", latitude: 0, longitude: 0, radius: 1000, notificationType: "webhook", webhookUrl: receiver.url, webhookSecret: "latency-secret" });
    // Each event is a fresh trackable entering the zone (its first fix inside), so every POST yields one entry.
    const total = seconds * rate;
    const trackables: string[] = [];
    for (let i = 0; i < total; i++) trackables.push(((await (await post("/trackables", { name: `t${i}` })).json()) as { id: string }).id);
    receiver.setResponder((r) => {
      arrivals.set(r.json.beacon.id, performance.now());
      return { status: 200 };
    });

    const returned = new Map<string, number>();
    const started = performance.now();
    const posts: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const id = trackables[i]!;
      posts.push(
        post(`/trackables/${id}/locations`, { latitude: 0.001, longitude: 0.001 }).then(async (res) => {
          await res.arrayBuffer();
          returned.set(id, performance.now());
        }),
      );
    }
    await Promise.all(posts);
    const sendSeconds = (performance.now() - started) / 1000;
    await receiver.waitFor(total, 60_000);
    const latencies = trackables.map((id) => arrivals.get(id)! - returned.get(id)!).sort((a, b) => a - b);
    const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
    console.log(`webhook latency bench: ${fmt(total)} entries at ${fmt(total / sendSeconds, 1)}/s for ${fmt(sendSeconds, 1)} s, embedded runner on PGlite`);
    console.log(`  POST returned → receiver got geofence.entry: p50 ${fmt(q(0.5), 1)} ms  p95 ${fmt(q(0.95), 1)} ms  p99 ${fmt(q(0.99), 1)} ms  max ${fmt(latencies.at(-1)!, 1)} ms`);
    console.log(`  all ${fmt(receiver.received.length)} deliveries signed correctly: ${receiver.received.every((r) => r.signatureValid)}`);
  } finally {
    await receiver.close();
    await app.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
