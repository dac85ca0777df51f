import { getDbHandle } from "@/lib/db/client";
import { jobsProvider } from "@/lib/jobs/config";
import { log } from "@/lib/log/logger";

/**
 * Server boot: open and migrate the database before the first request (or stop with the reason), then start the
 * embedded workflow runner unless Inngest runs the workflows, and on the embedded database its autoanalyze.
 */
export async function boot(): Promise<void> {
  let handle;
  try {
    handle = await getDbHandle();
  } catch (err) {
    log.error("[fenceline] could not open the database:", err instanceof Error ? err.message : err);
    process.exit(1);
  }
  if (handle.kind === "pglite") {
    // PGlite has no autovacuum: without this its tables are never analyzed (lib/db/auto-analyze.ts).
    const { startAutoAnalyze } = await import("@/lib/db/auto-analyze");
    startAutoAnalyze(handle.db);
  }
  // Upload spool files that a crash left with no running import (lib/imports/spool-sweep.ts).
  const { startSpoolSweeper } = await import("@/lib/imports/spool-sweep");
  startSpoolSweeper(handle.db);
  // Live streams: the commit hook, and on Postgres the LISTEN that brings the other servers' events (lib/stream/bus.ts).
  const { startStreamBus } = await import("@/lib/stream/bus");
  await startStreamBus();
  if (jobsProvider() === "embedded") {
    const { EmbeddedRunner } = await import("@/lib/jobs/embedded-runner");
    const { workflows } = await import("@/lib/jobs/workflows");
    const { motionInbox } = await import("@/lib/db/schema");
    const runner = new EmbeddedRunner(handle.db, new Map(workflows.map((w) => [w.name, w])), {
      // Only this process can open the embedded database, so every "running" job left in it is an orphan.
      recoverAllOnStart: handle.kind === "pglite",
      // PGlite has no autovacuum; Postgres's own cleans the jobs table and the motion inbox.
      vacuumEveryMs: handle.kind === "pglite" ? 10_000 : 0,
      vacuumAlso: [motionInbox],
    });
    await runner.start();
  }
}
