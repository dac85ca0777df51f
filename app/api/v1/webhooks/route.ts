// GET /api/v1/webhooks — list account webhook endpoints · POST /api/v1/webhooks — create one
import { parseBody, parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { CreateWebhookInput, WebhookListQuery } from "@/lib/webhooks/schemas";
import { createWebhook, listWebhooks } from "@/lib/webhooks/webhooks";

const enterprise = { requiredPlan: "enterprise" } as const;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx }) => json(await listWebhooks({ ctx, query: parseQuery(req, WebhookListQuery) })), enterprise),
  POST: withApiKey(async ({ req, ctx }) => json(await createWebhook({ ctx, input: await parseBody(req, CreateWebhookInput) }), 201), enterprise),
});
