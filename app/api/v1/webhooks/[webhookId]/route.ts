// GET / PATCH / DELETE /api/v1/webhooks/{webhookId} — read, update or delete an account webhook endpoint
import { parseBody } from "@/lib/http/body";
import { json, noContent, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { UpdateWebhookInput } from "@/lib/webhooks/schemas";
import { deleteWebhook, getWebhook, updateWebhook } from "@/lib/webhooks/webhooks";

const enterprise = { requiredPlan: "enterprise" } as const;
const webhookId = (params: Record<string, string | string[] | undefined>) => pathId(params, "webhookId", "Webhook");

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ ctx, params }) => json(await getWebhook({ ctx, id: webhookId(params) })), enterprise),
  PATCH: withApiKey(async ({ req, ctx, params }) => {
    const id = webhookId(params);
    return json(await updateWebhook({ ctx, id, input: await parseBody(req, UpdateWebhookInput) }));
  }, enterprise),
  DELETE: withApiKey(async ({ ctx, params }) => {
    await deleteWebhook({ ctx, id: webhookId(params) });
    return noContent();
  }, enterprise),
});
