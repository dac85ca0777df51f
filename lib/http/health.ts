import { pingDatabase } from "@/lib/db/health";
import { metrics } from "@/lib/metrics/registry";
import { json } from "./handler";
import { log } from "@/lib/log/logger";

/**
 * GET /api/health's reply: 200 `{status: "ok"}` when the database answers, 503 `{status: "unavailable"}` (and a log
 * line with the driver's error) when it does not (lib/db/health.ts: within 5 s). The app server answers it on its lean
 * path, the Next.js route under `next dev`. The check's own time goes to fenceline_health_check_duration_seconds.
 */
export async function healthResponse(): Promise<Response> {
  const started = performance.now();
  const took = (outcome: "ok" | "unavailable") => metrics().healthCheckDuration.observe({ outcome }, (performance.now() - started) / 1000);
  try {
    await pingDatabase();
    took("ok");
    return json({ status: "ok" });
  } catch (err) {
    took("unavailable");
    log.error("[health] database unavailable:", err);
    return json({ status: "unavailable" }, 503);
  }
}
