// POST /api/v1/webhooks/{webhookId}/rotate-secret — a new signing secret, the current one kept for an overlap
import { parseBody } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { rotateSecret } from "@/lib/webhooks/rotation";
import { RotateSecretInput } from "@/lib/webhooks/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  POST: withApiKey(
    async ({ req, ctx, params }) => {
      const id = pathId(params, "webhookId", "Webhook");
      const input = await parseBody(req, RotateSecretInput, { emptyAsObject: true });
      return json(await rotateSecret({ ctx, target: { webhookId: id }, input }));
    },
    { requiredPlan: "enterprise" },
  ),
});
