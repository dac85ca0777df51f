import { env } from "@/lib/config/env";

export type JobsProvider = "inngest" | "embedded";

/** Inngest runs the workflows when it is configured (Cloud keys, a self-hosted base URL or the dev server). */
export function jobsProvider(): JobsProvider {
  const e = env();
  return e.INNGEST_EVENT_KEY || e.INNGEST_BASE_URL || e.INNGEST_DEV ? "inngest" : "embedded";
}
