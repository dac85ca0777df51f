// Where a webhook event's server CPU goes, phase by phase on one server, each phase at the same rate: the server idle,
// location posts in an account without fences (no evaluation), posts that enter a fence without a webhook (evaluation
// and an event recorded, nothing delivered), and posts that enter a fence with a webhook (the delivery too, to a real
// receiver that checks the signature). Each phase's CPU (all the server's processes, from /proc) per post, so the
// difference between two phases is what that stage costs. Beside them, the framework's JSON 404 paced the same way and
// sent eight at a time: what a request costs the server when it arrives to an idle event loop, and when it does not.
// Usage: npx tsx bench/event-cost.ts [secondsPerPhase=10] [postsPerSecond=50]; with DATABASE_URL, on that Postgres.
import { buildIfStale } from "@/scripts/build";
import { startServer } from "@/tests/harness/server";
import { startReceiver } from "@/tests/support/receiver";
import { fmt, provisionKey, serverCpuMs } from "./lib";

const seconds = Number(process.argv[2] ?? 10);
const rate = Number(process.argv[3] ?? 50);

async function main() {
  buildIfStale();
  const receiver = await startReceiver({ secret: "cost-secret" });
  const app = await startServer({
    env: { WEBHOOK_ALLOW_PRIVATE_URLS: "true", RATE_LIMIT_PER_MINUTE: "1000000000", REDIS_URL: "" },
    nodeArgs: process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  });
  const pid = app.process.pid!;
  try {
    const api = async (key: string, path: string, body: unknown) => {
      const res = await fetch(`${app.baseUrl}/api/v1${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string };
    };
    const total = seconds * rate;
    /** An account with `total` fresh trackables, set up by `fence` (not measured). */
    const account = async (name: string, fence: (key: string) => Promise<unknown>) => {
      const key = await provisionKey(app, name, "enterprise");
      await fence(key);
      const ids: string[] = [];
      for (let i = 0; i < total; i += 10) ids.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => api(key, "/trackables", { name: `t${i + j}` })))).map((t) => t.id));
      return { key, ids };
    };
    const zone = { name: "Zone", latitude: 0, longitude: 0, radius: 1000 };
    const bare = await account("bare", async () => {});
    const quiet = await account("quiet", (key) => api(key, "/geofences", { ...zone, notificationType: "none" }));
    const hooked = await account("hooked", (key) =>
      api(key, "/geofences", { ...zone, notificationType: "webhook", webhookUrl: receiver.url, webhookSecret: "cost-secret" }),
    );
    await new Promise((r) => setTimeout(r, 2000));

    /** CPU per post (ms) while `total` posts go out at `rate` and until the server is quiet again. */
    const phase = async (a: { key: string; ids: string[] } | null, deliveries: number) => {
      const before = serverCpuMs(pid);
      const started = performance.now();
      const posts: Promise<unknown>[] = [];
      for (let i = 0; i < total; i++) {
        const wait = started + (i * 1000) / rate - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        if (a) posts.push(api(a.key, `/trackables/${a.ids[i]}/locations`, { latitude: 0.001, longitude: 0.001 }));
      }
      await Promise.all(posts);
      if (deliveries > 0) await receiver.waitFor(deliveries, 60_000);
      // The runner's last runs end within a few ms of the last delivery; wait as long in every phase.
      await new Promise((r) => setTimeout(r, 500));
      const ms = serverCpuMs(pid) - before;
      return { ms, seconds: (performance.now() - started) / 1000 };
    };
    /** CPU per request (ms) of `total` JSON 404s, paced at `rate` or (burst) eight at a time back to back. */
    const notFound = async (burst: boolean) => {
      const before = serverCpuMs(pid);
      const started = performance.now();
      const send = () => fetch(`${app.baseUrl}/api/v1/no-such-endpoint`).then((r) => r.arrayBuffer());
      for (let i = 0; i < total; i += burst ? 8 : 1) {
        if (burst) {
          await Promise.all(Array.from({ length: Math.min(8, total - i) }, send));
          continue;
        }
        const wait = started + (i * 1000) / rate - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        await send();
      }
      return (serverCpuMs(pid) - before) / total;
    };
    const paced404 = await notFound(false);
    const burst404 = await notFound(true);
    const idle = await phase(null, 0);
    const none = await phase(bare, 0);
    const event = await phase(quiet, 0);
    const delivered = await phase(hooked, total);
    const idlePerSecond = idle.ms / idle.seconds;
    const per = (p: { ms: number; seconds: number }) => p.ms / total;
    const backend = process.env.DATABASE_URL ? "Postgres" : "PGlite";
    console.log(`event cost bench: ${fmt(total)} posts per phase at ${rate}/s, one server on ${backend} (server CPU from /proc, all its processes)`);
    console.log(`  idle:                                   ${fmt(idlePerSecond, 1)} ms of CPU per second (${fmt(idlePerSecond / rate, 2)} ms per post-interval)`);
    console.log(`  JSON 404, paced / eight at a time:     ${fmt(paced404, 2)} / ${fmt(burst404, 2)} ms per request`);
    console.log(`  post, account without fences:           ${fmt(per(none), 2)} ms per post`);
    console.log(`  post entering a fence, no webhook:      ${fmt(per(event), 2)} ms per post (evaluation and event: +${fmt(per(event) - per(none), 2)})`);
    console.log(`  post entering a fence with a webhook:   ${fmt(per(delivered), 2)} ms per post (delivery: +${fmt(per(delivered) - per(event), 2)})`);
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
