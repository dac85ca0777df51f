import { z } from "zod";
import { env } from "@/lib/config/env";
import { sweepOfflineDevices } from "@/lib/trackables/offline-sweep";
import { defineWorkflow } from "../types";

/** device-offline-sweep: every minute with Inngest (cron); with the embedded runner, a timer scaled to the setting. */
export const deviceOfflineSweep = defineWorkflow({
  name: "device-offline-sweep",
  schedule: {
    cron: "* * * * *",
    // A quarter of the offline delay, between 1 s and 1 min: a device goes offline at most 25% late.
    everyMs: () => Math.min(60_000, Math.max(1000, (env().DEVICE_OFFLINE_AFTER_S * 1000) / 4)),
  },
  payload: z.object({}),
  async run(_payload, io) {
    await io.runTask("sweep", async () => ({ markedOffline: await sweepOfflineDevices() }));
  },
});
