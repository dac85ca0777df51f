import type { Workflow } from "../types";
import { deliverNotification } from "./deliver-notification";
import { deliverWebhook } from "./deliver-webhook";
import { deviceOfflineSweep } from "./device-offline-sweep";
import { evaluateGeofences } from "./evaluate-geofences";
import { retentionSweep } from "./retention-sweep";
import { purgeIdempotencyKeys } from "./purge-idempotency-keys";
import { readImportFile } from "./read-import";

/** Every workflow, written once and run by Inngest (inngest/functions) or the embedded runner. */
export const workflows: Workflow[] = [
  evaluateGeofences,
  deliverWebhook,
  deviceOfflineSweep,
  deliverNotification,
  retentionSweep,
  purgeIdempotencyKeys,
  readImportFile,
] as unknown as Workflow[];

export { deliverNotification, deliverWebhook, deviceOfflineSweep, evaluateGeofences, purgeIdempotencyKeys, readImportFile, retentionSweep };
