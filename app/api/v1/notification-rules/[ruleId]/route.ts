// GET / PATCH / DELETE /api/v1/notification-rules/{ruleId} — read, update or delete a notification rule
import { parseBody } from "@/lib/http/body";
import { json, noContent, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { deleteRule, getRule, updateRule } from "@/lib/notifications/rules";
import { UpdateNotificationRuleInput } from "@/lib/notifications/rule-schemas";

const ruleId = (params: Record<string, string | string[] | undefined>) => pathId(params, "ruleId", "Notification rule");

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ ctx, params }) => json(await getRule({ ctx, id: ruleId(params) }))),
  PATCH: withApiKey(async ({ req, ctx, params }) => {
    const id = ruleId(params);
    return json(await updateRule({ ctx, id, input: await parseBody(req, UpdateNotificationRuleInput) }));
  }),
  DELETE: withApiKey(async ({ ctx, params }) => {
    await deleteRule({ ctx, id: ruleId(params) });
    return noContent();
  }),
});
