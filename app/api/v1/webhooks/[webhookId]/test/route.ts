// POST /api/v1/webhooks/{webhookId}/test — send one sample event to an account endpoint
import { parseBody } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { EndpointTestInput } from "@/lib/webhooks/schemas";
import { sendTest } from "@/lib/webhooks/test-webhook";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  POST: withApiKey(
    async ({ req, ctx, params }) => {
      const webhookId = pathId(params, "webhookId", "Webhook");
      const { event } = await parseBody(req, EndpointTestInput, { emptyAsObject: true });
      return json((await sendTest({ ctx, target: { webhookId }, event })).answer);
    },
    { requiredPlan: "enterprise" },
  ),
});
