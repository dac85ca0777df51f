// GET /api/v1/notification-rules — list notification rules · POST /api/v1/notification-rules — create one
import { parseBody, parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { createRule, listRules } from "@/lib/notifications/rules";
import { CreateNotificationRuleInput, NotificationRuleListQuery } from "@/lib/notifications/rule-schemas";

// Notifications to people are on every plan (no requiredPlan).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx }) => json(await listRules({ ctx, query: parseQuery(req, NotificationRuleListQuery) }))),
  POST: withApiKey(async ({ req, ctx }) => json(await createRule({ ctx, input: await parseBody(req, CreateNotificationRuleInput) }), 201)),
});
