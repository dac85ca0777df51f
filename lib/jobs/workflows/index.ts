import type { Workflow } from "../types";
import { deliverWebhook } from "./deliver-webhook";
import { deviceOfflineSweep } from "./device-offline-sweep";
import { evaluateGeofences } from "./evaluate-geofences";

/** Every workflow, written once and run by Inngest (inngest/functions) or the embedded runner. */
export const workflows: Workflow[] = [evaluateGeofences, deliverWebhook, deviceOfflineSweep] as unknown as Workflow[];

export { deliverWebhook, deviceOfflineSweep, evaluateGeofences };
