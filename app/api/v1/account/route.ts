// GET / PATCH /api/v1/account — the workspace the key belongs to, with its data retention
import { parseBody } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { getAccountSettings, updateAccountSettings } from "@/lib/accounts/account-settings";
import { PatchAccountInput } from "@/lib/accounts/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ ctx }) => json(await getAccountSettings({ ctx }))),
  PATCH: withApiKey(async ({ req, ctx }) => json(await updateAccountSettings({ ctx, input: await parseBody(req, PatchAccountInput) }))),
});
