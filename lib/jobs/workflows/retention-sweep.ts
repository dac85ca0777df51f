import { z } from "zod";
import { applyRetention } from "@/lib/accounts/retention";
import { defineWorkflow } from "../types";

/** retention-sweep: every ten minutes, deletes what each account's retention settings keep no longer. */
export const retentionSweep = defineWorkflow({
  name: "retention-sweep",
  schedule: { cron: "*/10 * * * *", everyMs: () => 600_000 },
  payload: z.object({}),
  async run(_payload, io) {
    await io.runTask("delete-expired", async () => ({ ...(await applyRetention()) }));
  },
});
