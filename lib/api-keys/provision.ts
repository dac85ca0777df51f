import { z } from "zod";
import { ensureAccount, SLUG_PATTERN } from "@/lib/accounts/accounts";
import type { Db } from "@/lib/db/client";
import { createApiKey } from "./keys";

export const ProvisionInput = z.strictObject({
  account: z.string().regex(SLUG_PATTERN, "use lowercase letters, digits and dashes (1–64 characters)"),
  plan: z.enum(["free", "enterprise"]).optional(),
  name: z.string().trim().min(1).max(100).optional(),
});
export type ProvisionInput = z.infer<typeof ProvisionInput>;

/** Headless provisioning (apikey:create): the account by slug, created when needed, and a new key for it. */
export async function provisionApiKey(db: Db, input: ProvisionInput) {
  const account = await ensureAccount(db, { slug: input.account, plan: input.plan });
  const { key, apiKey } = await createApiKey({ db, accountId: account.id, name: input.name ?? "Provisioned key" });
  return { key, keyId: apiKey.id, accountId: account.id, plan: account.plan };
}
