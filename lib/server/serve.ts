import { env } from "@/lib/config/env";
import { guardDriverRejections } from "@/lib/db/driver-guard";
import { createAppServer } from "./app-server";
import { log } from "@/lib/log/logger";

/**
 * Serves the built app on PORT until SIGTERM/SIGINT, then closes gracefully: no new connections, in-flight requests
 * get up to 5 s, and the process exits 0 (at the latest 10 s after the signal).
 */
export async function serve(opts: { port?: number } = {}): Promise<void> {
  const port = opts.port ?? env().PORT;
  guardDriverRejections();
  const app = await createAppServer();
  const bound = await app.listen(port);
  log.info(`[fenceline] listening on http://localhost:${bound} (${env().APP_URL})`);
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log.info(`[fenceline] ${signal}: closing`);
      // Whatever happens while closing, the process is gone 10 s after the signal.
      setTimeout(() => process.exit(0), 10_000).unref();
      app.close().finally(() => process.exit(0));
    });
  }
}
