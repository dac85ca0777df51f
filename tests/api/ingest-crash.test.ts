import { expect, it } from "vitest";
import { newAccount, request } from "../harness/client";
import { crashServers } from "../harness/crash";

// Concurrent posts are stored in groups, one statement for many posts: a post is answered only once its group's
// statement has committed. The server is killed (kill -9) while posts are in flight and started again on the same data
// (PGlite directory, or the same Postgres database with DATABASE_URL): every point acknowledged before the kill is there.

const crash = crashServers();

it("kill -9 while 32 clients post: every acknowledged point is stored, once", async () => {
  // No rate limit in the way: the posts must keep coming until the kill.
  const env = { RATE_LIMIT_PER_MINUTE: "1000000" };
  const first = await crash.start({ name: "ingest-crash", env });
  const a = await newAccount();
  const trackables: string[] = [];
  for (let i = 0; i < 4; i++) trackables.push((await a.api("POST", "/trackables", { name: `Crash ${i}` })).body.id);

  const acknowledged = new Map<string, string>(); // location id → trackable
  let failed = 0;
  let stop = false;
  const client = async (c: number) => {
    for (let n = 0; !stop; n++) {
      const trackableId = trackables[(c + n) % trackables.length]!;
      try {
        const res = await a.api("POST", `/trackables/${trackableId}/locations`, { latitude: 40 + c / 100, longitude: n / 1000 });
        if (res.status === 201) for (const l of res.body.data) acknowledged.set(l.id, trackableId);
        else failed++;
      } catch {
        failed++;
        return; // the server is gone
      }
    }
  };
  let running = 32;
  const clients = Array.from({ length: 32 }, (_, c) => client(c).finally(() => running--));
  while (acknowledged.size < 300 && running > 0) await new Promise((r) => setTimeout(r, 20));
  expect(acknowledged.size).toBeGreaterThanOrEqual(300);
  await first.kill();
  stop = true;
  await Promise.all(clients);
  // Posts were in flight when the server died (else the kill tested nothing).
  expect(failed).toBeGreaterThan(0);

  await crash.restart();
  const stored: string[] = [];
  for (const t of trackables) {
    let cursor = "";
    for (;;) {
      const res = await request("GET", `/api/v1/trackables/${t}/locations?limit=1000${cursor ? `&cursor=${cursor}` : ""}`, { key: a.key });
      expect(res.status).toBe(200);
      stored.push(...res.body.data.map((l: { id: string }) => l.id));
      if (!res.body.nextCursor) break;
      cursor = res.body.nextCursor;
    }
  }
  expect(new Set(stored).size).toBe(stored.length);
  const missing = [...acknowledged.keys()].filter((id) => !stored.includes(id));
  expect(missing, "acknowledged points missing after the restart").toEqual([]);
}, 300_000);
