import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { purgeExpiredIdempotencyKeys } from "@/lib/idempotency/idempotency";
import { defineWorkflow } from "../types";

/** purge-idempotency-keys: hourly, deletes the Idempotency-Keys past their 24 hours (lib/idempotency). */
export const purgeIdempotencyKeys = defineWorkflow({
  name: "purge-idempotency-keys",
  schedule: { cron: "17 * * * *", everyMs: () => 60 * 60 * 1000 },
  payload: z.object({}),
  async run(_payload, io) {
    await io.runTask("purge", async () => ({ purged: await purgeExpiredIdempotencyKeys(await getDb()) }));
  },
});
