import { spawn } from "node:child_process";
import { expect, it } from "vitest";
import { procState, readEmbeddedLock } from "@/lib/db/embedded-lock";
import { serverArgs } from "@/scripts/build";
import { newAccount, type TestAccount } from "../harness/client";
import { crashServers } from "../harness/crash";
import { freePort, serverEnv, waitForHealth } from "../harness/server";
import { startCapture } from "../support/capture";
import { startReceiver, type Received } from "../support/receiver";

// With kill -9 every few seconds, deliveries were once lost (an attempt interrupted before it was
// sent still used up a place of the retry schedule) and the history said `failed` for deliveries the receiver had
// accepted. The server process is really killed and started again on the same data (PGlite directory, or the same
// Postgres database when the suite runs with DATABASE_URL), as tests/api/restart.test.ts does.

const crash = crashServers();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const deliveryOf = (r: Received) => r.headers["x-service-delivery"] as string;

/** Every delivery of the trackable, with its attempts, through the API (all pages). */
async function deliveriesOf(a: TestAccount, trackableId: string) {
  const all: any[] = [];
  let cursor = "";
  for (;;) {
    const res = await a.api("GET", `/webhook-deliveries?trackableId=${trackableId}&limit=100${cursor ? `&cursor=${cursor}` : ""}`);
    if (res.status !== 200) throw new Error(`listing deliveries: ${res.status} ${res.text}`);
    all.push(...res.body.data);
    if (!res.body.nextCursor) return all;
    cursor = res.body.nextCursor;
  }
}

it("a crash loop (3 × kill -9 while ≥ 100 deliveries retry) loses no delivery, and the history tells the truth", async () => {
  const env = { WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_RETRY_DELAYS: "1500,1500", WEBHOOK_TIMEOUT_MS: "30000" };
  // The receiver fails the first two requests of each delivery that it answered (a request whose sender died before
  // the answer is not acted on), then accepts; each answer takes 300–900 ms, so a kill finds many in flight. The
  // time-out is long: on a loaded machine a slow server must not turn answers into time-outs (failures of its own).
  const planned = new Map<Received, number>();
  const answered = (id: string, status?: number) =>
    receiver.received.filter((r) => deliveryOf(r) === id && r.answered && (status === undefined || planned.get(r) === status));
  const receiver = await startReceiver({
    respond: (req) => {
      const status = answered(deliveryOf(req)).length < 2 ? 500 : 200;
      planned.set(req, status);
      return { status, body: status === 200 ? "ok" : "not yet", delayMs: 300 + Math.floor(Math.random() * 600) };
    },
  });
  try {
    await crash.start({ name: "crash-loop", env });
    const a = await newAccount();
    expect((await a.api("POST", "/webhooks", { url: receiver.url, events: ["location.updated"] })).status).toBe(201);
    const t = (await a.api("POST", "/trackables", { name: "Crashing" })).body;
    const t0 = Date.parse("2026-11-22T07:00:00.000Z");
    const points = Array.from({ length: 120 }, (_, i) => ({ latitude: 45 + i / 1000, longitude: 5, timestamp: new Date(t0 + i * 1000).toISOString() }));
    expect((await a.api("POST", `/trackables/${t.id}/locations`, { locations: points })).status).toBe(201);

    const accepted = () => new Set(receiver.received.filter((r) => r.answered && planned.get(r) === 200).map(deliveryOf));
    await receiver.waitFor(100, 30_000);
    let kills = 0;
    let retryingAtFirstKill = 0;
    for (let i = 0; i < 3; i++) {
      await sleep(1000 + Math.floor(Math.random() * 1500));
      if (i === 0) retryingAtFirstKill = 120 - accepted().size;
      await crash.kill();
      kills++;
      await crash.restart();
    }
    expect(kills).toBeGreaterThanOrEqual(3);
    expect(retryingAtFirstKill).toBeGreaterThanOrEqual(100);

    // Let the last server finish: on Postgres the killed servers' running jobs come back when their leases expire.
    const deadline = Date.now() + 60_000;
    let deliveries = await deliveriesOf(a, t.id);
    while (deliveries.length < 120 || deliveries.some((d) => d.status === "pending")) {
      if (Date.now() > deadline) {
        const pending = deliveries.filter((d) => d.status === "pending").length;
        throw new Error(`${pending} of ${deliveries.length} deliveries still pending after the crash loop`);
      }
      await sleep(500);
      deliveries = await deliveriesOf(a, t.id);
    }

    // Zero lost: every delivery was accepted by the receiver (duplicates allowed).
    expect(deliveries).toHaveLength(120);
    const lost = deliveries.filter((d) => answered(d.id, 200).length === 0).map((d) => d.id);
    expect(lost, "deliveries the receiver never accepted").toEqual([]);

    // Truthful history: each delivery succeeded (the receiver accepted it); every attempt that says it was answered
    // was answered so by the receiver; interrupted attempts claim no answer; the 2 failures + 1 success fill the
    // schedule of 3 attempts exactly, so one interrupted attempt counted as a failure would lose the delivery.
    let interrupted = 0;
    for (const d of deliveries) {
      expect(d.status, `delivery ${d.id}: ${JSON.stringify(d.attempts)}`).toBe("succeeded");
      const counted = d.attempts.filter((x: any) => !x.interrupted);
      for (const x of d.attempts.filter((y: any) => y.interrupted)) {
        interrupted++;
        expect(x.statusCode).toBeNull();
        expect(x.error).toMatch(/^Interrupted: /);
      }
      expect(counted.length, JSON.stringify(d.attempts)).toBeLessThanOrEqual(3);
      expect(counted.at(-1).statusCode).toBe(200);
      for (const status of [500, 200]) {
        const said = counted.filter((x: any) => x.statusCode === status).length;
        expect(said, `delivery ${d.id}: attempts answered ${status}`).toBeLessThanOrEqual(answered(d.id, status).length);
      }
      expect(counted.every((x: any) => x.statusCode !== null), JSON.stringify(d.attempts)).toBe(true);
    }
    // The loop did interrupt attempts in flight (else it tested nothing).
    expect(interrupted).toBeGreaterThan(0);
  } finally {
    await receiver.close();
  }
  // About a minute on a quiet machine; restarts take much longer when the machine is loaded.
}, 300_000);

it.skipIf(!process.env.DATABASE_URL)("a second server takes over a dead server's running job within the 15 s lease (Postgres)", async () => {
  // The first request of the delivery hangs (the first server is killed while waiting for it); the next is accepted.
  const receiver = await startReceiver({ respond: (_r, n) => (n === 1 ? { status: 200, delayMs: 120_000 } : { status: 200, body: "ok" }) });
  try {
    const env = { WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_TIMEOUT_MS: "110000" };
    const first = await crash.start({ name: "crash-takeover", env });
    const a = await newAccount();
    expect((await a.api("POST", "/webhooks", { url: receiver.url, events: ["location.updated"] })).status).toBe(201);
    const t = (await a.api("POST", "/trackables", { name: "Taken over" })).body;
    await a.api("POST", `/trackables/${t.id}/locations`, { latitude: 1, longitude: 1 });
    const [hanging] = await receiver.waitFor(1, 20_000);

    await crash.beside();
    await sleep(1000);
    expect(receiver.received).toHaveLength(1);
    const killedAt = Date.now();
    await first.kill();
    const [, resent] = await receiver.waitFor(2, 30_000);
    const tookMs = resent!.at - killedAt;
    expect(deliveryOf(resent!)).toBe(deliveryOf(hanging!));
    // One lease (15 s) at most after the last renewal, plus a poll and the send; the lease was 60 s before.
    expect(tookMs).toBeLessThan(20_000);

    const deadline = Date.now() + 10_000;
    let d = (await a.api("GET", `/webhook-deliveries/${deliveryOf(resent!)}`)).body;
    while (d.status !== "succeeded" && Date.now() < deadline) {
      await sleep(200);
      d = (await a.api("GET", `/webhook-deliveries/${deliveryOf(resent!)}`)).body;
    }
    expect(d.status).toBe("succeeded");
    expect(d.attempts.map((x: any) => [x.number, x.interrupted, x.statusCode])).toEqual([
      [1, true, null],
      [2, false, 200],
    ]);
  } finally {
    await receiver.close();
  }
}, 120_000);

// prctl(PR_SET_CHILD_SUBREAPER)'s system call number, by architecture.
const PRCTL: Partial<Record<string, number>> = { x64: 157, arm64: 167 };

/**
 * A supervisor that restarts at once and reaps late: a subreaper (the killed server's database process is orphaned to
 * it, not to init) that never waits for its children, so every killed process stays a zombie. Each line on its stdin
 * starts the server in a process group of its own and answers with its pid; the server's output goes to stderr.
 */
const LAZY_SUPERVISOR = `
syscall($ENV{PRCTL_NR}, 36, 1, 0, 0, 0) == 0 or die "prctl: $!";
$| = 1;
while (<STDIN>) {
  my $pid = fork() // die "fork: $!";
  if ($pid == 0) { setpgrp(0, 0); open(STDOUT, ">&", \*STDERR); exec(@ARGV) or die "exec: $!"; }
  print "$pid\n";
}
1 while waitpid(-1, 1) > 0;
`;

it.skipIf(!PRCTL[process.arch])("kill -9 of the whole process group, then an immediate start: the new server opens the database at the first try, twice in a row", async () => {
  const dataDir = crash.dataDir("crash-restart");
  const port = await freePort();
  let output = "";
  const supervisor = spawn("perl", ["-e", LAZY_SUPERVISOR, process.execPath, ...serverArgs()], {
    env: { ...process.env, PRCTL_NR: String(PRCTL[process.arch]), ...serverEnv(port, dataDir, null) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  supervisor.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const pids: string[] = [];
  supervisor.stdout!.on("data", (d: Buffer) => pids.push(...d.toString().split("\n").filter(Boolean)));
  const start = async (): Promise<number> => {
    const n = pids.length;
    supervisor.stdin!.write("start\n");
    while (pids.length === n) await sleep(5);
    return Number(pids[n]);
  };
  /** Healthy, answered by `pid` itself: it did not exit (a refused lock ends the process). */
  const healthy = (pid: number) =>
    waitForHealth(`http://127.0.0.1:${port}`, {
      name: `server ${pid}`,
      ended: () => (procState(pid)?.state === "running" ? null : "exited"),
      output: () => output,
      timeoutMs: 90_000,
    });
  let pid = 0;
  try {
    pid = await start();
    await healthy(pid);
    for (let i = 0; i < 2; i++) {
      const holder = readEmbeddedLock(dataDir)!;
      expect(holder.ownerPid).toBe(pid);
      process.kill(-pid, "SIGKILL");
      const next = await start();
      await healthy(next);
      // Both killed processes were still there, unreaped, while the new server took their lock.
      expect([procState(pid), procState(holder.pid)]).toEqual([{ state: "zombie" }, { state: "zombie" }]);
      expect(output).not.toMatch(/is in use by process/);
      pid = next;
    }
  } finally {
    if (pid && procState(pid)?.state === "running") {
      process.kill(-pid, "SIGTERM");
      while (procState(pid)?.state === "running") await sleep(50);
    }
    supervisor.stdin!.end();
    await new Promise((r) => (supervisor.exitCode === null ? supervisor.once("exit", r) : r(null)));
  }
}, 300_000);

it("a notification retrying after a refusal (503, Retry-After) when the server is killed (kill -9) is sent once after the restart, and its log says so", async () => {
  const env = { WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_RETRY_DELAYS: "1000,1000" };
  // ntfy is down (503, asking for 4 s: longer than the 1 s schedule) until the server has been killed, then up.
  let up = false;
  const capture = await startCapture(() => (up ? { status: 200, body: "ok" } : { status: 503, body: "busy", headers: { "Retry-After": "4" } }));
  const poll = async <T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const got = await fn();
      if (got !== undefined) return got;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
      await sleep(100);
    }
  };
  try {
    const first = await crash.start({ name: "crash-notify", env });
    const a = await newAccount();
    const channel = (await a.api("POST", "/notification-channels", { name: "Phone", type: "ntfy", config: { serverUrl: capture.url, topic: "crash" } })).body;
    const rule = (await a.api("POST", "/notification-rules", { name: "Arrivals", eventTypes: ["geofence.entry"], channelIds: [channel.id] })).body;
    expect((await a.api("POST", "/geofences", { name: "Depot", latitude: 30, longitude: 30, radius: 500 })).status).toBe(201);
    const t = (await a.api("POST", "/trackables", { name: "Van 7" })).body;
    expect((await a.api("POST", `/trackables/${t.id}/locations`, { latitude: 30, longitude: 30 })).status).toBe(201);

    // Retrying: the refusal is recorded and the next attempt is due (the workflow sleeps); then kill -9.
    const log = () => a.api("GET", `/notification-deliveries?ruleId=${rule.id}`).then((r) => r.body.data as any[]);
    const waiting = await poll("the refusal recorded", async () => (await log()).find((d) => d.attempts.length === 1 && d.nextAttemptAt !== null), 30_000);
    expect([waiting.status, waiting.attempts[0].statusCode]).toEqual(["pending", 503]);
    await first.kill();
    up = true;
    await crash.restart();

    const [sent] = await poll("the delivery sent", async () => {
      const all = await log();
      return all[0]?.status === "sent" ? all : undefined;
    }, 30_000);
    // Anything sent twice would show by now.
    await sleep(2000);
    expect(capture.requests.map((r) => r.answered)).toEqual([true, true]);
    expect(capture.requests.map((r) => [r.url, r.headers.title])).toEqual([
      ["/crash", "Van 7 entered Depot"],
      ["/crash", "Van 7 entered Depot"],
    ]);
    // The Retry-After held across the crash: no earlier than 4 s after the refusal.
    expect(capture.requests[1]!.at - capture.requests[0]!.at).toBeGreaterThanOrEqual(4000);
    expect(await log()).toHaveLength(1);
    expect([sent.id, sent.status, sent.nextAttemptAt]).toEqual([waiting.id, "sent", null]);
    expect(sent.attempts.map((x: any) => [x.statusCode, x.error])).toEqual([
      [503, "HTTP 503"],
      [200, null],
    ]);
  } finally {
    await capture.close();
  }
}, 120_000);
