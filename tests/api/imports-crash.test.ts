import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { newAccount, type TestAccount } from "../harness/client";
import { crashServers } from "../harness/crash";
import type { TestServer } from "../harness/server";

// An import is read in the background after its 202: a server killed (kill -9) in the middle of the reading must not
// leave it running for ever. Started again on the same data, the server reads the spooled file on from the import's
// recorded progress (resends are dropped, so nothing is stored twice); when the file is gone, the import ends failed.

const crash = crashServers();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const POINTS = 20_000;
const T0 = Date.parse("2026-03-01T00:00:00.000Z");

/** A GPX track of POINTS distinct points, one a second. */
function track(): string {
  const points = Array.from(
    { length: POINTS },
    (_, i) => `<trkpt lat="${(48 + i * 1e-5).toFixed(6)}" lon="${(2 + i * 1e-5).toFixed(6)}"><time>${new Date(T0 + i * 1000).toISOString()}</time></trkpt>`,
  );
  return `<?xml version="1.0"?>\n<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>\n${points.join("\n")}\n</trkseg></trk></gpx>\n`;
}

/** Uploads the track and waits until the import has stored some of it, but not all; the import's id. */
async function uploadAndWaitForProgress(a: TestAccount, server: TestServer, trackableId: string): Promise<string> {
  const res = await fetch(`${server.baseUrl}/api/v1/trackables/${trackableId}/imports?format=gpx`, {
    method: "POST",
    headers: { Authorization: `Bearer ${a.key}` },
    body: track(),
  });
  expect(res.status).toBe(202);
  const accepted = await res.json();
  expect(accepted.status).toBe("running");
  for (let i = 0; i < 600; i++) {
    const now = (await a.api("GET", `/trackables/${trackableId}/imports/${accepted.id}`)).body;
    expect(now.status).toBe("running");
    if (now.stored > 0) return accepted.id;
    await sleep(50);
  }
  throw new Error("the import stored nothing in 30 s");
}

async function ended(a: TestAccount, trackableId: string, importId: string, withinMs: number) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const now = (await a.api("GET", `/trackables/${trackableId}/imports/${importId}`)).body;
    if (now.status !== "running") return now;
    if (Date.now() > deadline) throw new Error(`import still running ${withinMs} ms after the restart: ${JSON.stringify(now)}`);
    await sleep(250);
  }
}

it("a server killed while it reads an import reads it on after its restart: every point stored once, the spool file removed", async () => {
  const first = await crash.start({ name: "import-crash" });
  const a = await newAccount();
  const trackableId = (await a.api("POST", "/trackables", { name: "Killed mid-import" })).body.id as string;
  const importId = await uploadAndWaitForProgress(a, first, trackableId);
  await first.kill();
  const spool = path.join(first.dataDir, "imports", `${importId}.upload`);
  expect(fs.existsSync(spool)).toBe(true);
  expect(fs.statSync(spool).mode & 0o777).toBe(0o600);

  await crash.restart();
  // On Postgres the dead server's run comes back when its 15 s lease expires; with the embedded database at once.
  const done = await ended(a, trackableId, importId, 90_000);
  expect(done).toMatchObject({ status: "completed", processed: POINTS, stored: POINTS, skipped: 0, errors: [] });
  const latest = await a.api("GET", `/trackables/${trackableId}/locations?limit=1`);
  expect(latest.body.data[0].timestamp).toBe(new Date(T0 + (POINTS - 1) * 1000).toISOString());
  expect(fs.existsSync(spool)).toBe(false);
}, 240_000);

it("an import whose spooled file is gone after a kill -9 ends failed, saying the server stopped, keeping what was stored", async () => {
  const first = await crash.start({ name: "import-crash" });
  const a = await newAccount();
  const trackableId = (await a.api("POST", "/trackables", { name: "Lost its file" })).body.id as string;
  const importId = await uploadAndWaitForProgress(a, first, trackableId);
  await first.kill();
  // As when another server, with a DATA_DIR of its own, takes the run over.
  fs.rmSync(path.join(first.dataDir, "imports", `${importId}.upload`));

  await crash.restart();
  const done = await ended(a, trackableId, importId, 90_000);
  expect(done.status).toBe("failed");
  expect(done.errors.at(-1).message).toMatch(/server stopped/);
  expect(done.stored).toBeGreaterThan(0);
  expect(done.stored).toBeLessThan(POINTS);
  expect(done.completedAt).not.toBeNull();
}, 240_000);
