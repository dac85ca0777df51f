import { pingDatabase } from "@/lib/db/health";
import { json } from "./handler";
import { log } from "@/lib/log/logger";

/**
 * GET /api/health's reply: 200 `{status: "ok"}` when the database answers, 503 `{status: "unavailable"}` (and a log
 * line with the driver's error) when it does not. The app server answers it on its lean path, the Next.js route under
 * `next dev`.
 */
export async function healthResponse(): Promise<Response> {
  try {
    await pingDatabase();
    return json({ status: "ok" });
  } catch (err) {
    log.error("[health] database unavailable:", err);
    return json({ status: "unavailable" }, 503);
  }
}
