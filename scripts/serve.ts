// Serves the built app (no migration, no build): the process `npm start` ends up running, and the one the test harness
// spawns. Next.js reads NODE_ENV when it loads, so it is set before anything imports it.
export {};

const vars = process.env as Record<string, string | undefined>;
vars.NODE_ENV ??= "production";
vars.NEXT_TELEMETRY_DISABLED ??= "1";

const { serve } = await import("@/lib/server/serve");
await serve().catch((err: unknown) => {
  console.error("[fenceline] could not start:", err instanceof Error ? err.message : err);
  process.exit(1);
});
