import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGeofence } from "@/lib/geofences/geofences";
import { CreateGeofenceInput } from "@/lib/geofences/schemas";
import { createTrackable } from "@/lib/trackables/trackables";
import { openUnitDb } from "@/tests/support/unit-db";
import { labelDeliveries } from "./delivery-labels";
import { createWebhook } from "./webhooks";
import { CreateWebhookInput } from "./schemas";

let unit: Awaited<ReturnType<typeof openUnitDb>>;
beforeAll(async () => {
  unit = await openUnitDb("delivery-labels");
}, 120_000);
afterAll(async () => unit?.close(), 60_000);

describe("labelDeliveries", () => {
  it("names the geofences, endpoints and trackables of the account, and nothing of another account", async () => {
    const ctx = await unit.account();
    const other = await unit.account();
    const fence = await createGeofence({ ctx, input: CreateGeofenceInput.parse({ name: "Depot", latitude: 1, longitude: 2, radius: 50 }) });
    const hook = await createWebhook({
      ctx,
      input: CreateWebhookInput.parse({ url: "https://example.com/hook", events: ["geofence.entry"], description: "CRM" }),
    });
    const van = await createTrackable({ ctx, input: { name: "Van 7", type: "vehicle", metadata: {} } });
    const foreign = await createTrackable({ ctx: other, input: { name: "Theirs", type: "device", metadata: {} } });
    const gone = "00000000-0000-4000-8000-000000000001";

    const labels = await labelDeliveries({
      ctx,
      deliveries: [
        { geofenceId: fence.id, webhookId: null, trackableId: van.id },
        { geofenceId: null, webhookId: hook.id, trackableId: van.id },
        { geofenceId: gone, webhookId: null, trackableId: foreign.id },
      ],
    });
    expect(labels).toEqual({
      geofences: { [fence.id]: "Depot" },
      webhooks: { [hook.id]: { url: "https://example.com/hook", description: "CRM" } },
      trackables: { [van.id]: "Van 7" },
    });
  });

  it("answers an empty page without querying for nothing", async () => {
    expect(await labelDeliveries({ ctx: await unit.account(), deliveries: [] })).toEqual({ geofences: {}, webhooks: {}, trackables: {} });
  });
});
