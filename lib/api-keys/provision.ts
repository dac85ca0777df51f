import { eq } from "drizzle-orm";
import { z } from "zod";
import { ensureAccount, SLUG_PATTERN } from "@/lib/accounts/accounts";
import type { Db } from "@/lib/db/client";
import { accounts, users } from "@/lib/db/schema";
import { ApiError } from "@/lib/http/errors";
import { createApiKey } from "./keys";
import { ScopeList } from "./scopes";

export const ProvisionInput = z
  .strictObject({
    account: z.string().regex(SLUG_PATTERN, "use lowercase letters, digits and dashes (1–64 characters)").optional(),
    email: z.string().trim().toLowerCase().pipe(z.email("must be an email address")).optional(),
    plan: z.enum(["free", "enterprise"]).optional(),
    name: z.string().trim().min(1).max(100).optional(),
    scopes: ScopeList.optional(),
  })
  .refine((v) => (v.account === undefined) !== (v.email === undefined), { message: "give either --account or --email", path: ["account"] });
export type ProvisionInput = z.infer<typeof ProvisionInput>;

/**
 * Headless provisioning (apikey:create): a new key for the account with this slug (created when needed), or for the
 * workspace of the dashboard user with this email (which must exist: sign up first), moved to `plan` when one is given,
 * holding `scopes` (every scope when absent).
 */
export async function provisionApiKey(db: Db, input: ProvisionInput) {
  let slug = input.account;
  if (input.email !== undefined) {
    const [row] = await db.select({ slug: accounts.slug }).from(users).innerJoin(accounts, eq(accounts.id, users.accountId)).where(eq(users.email, input.email)).limit(1);
    if (!row) throw new ApiError("not_found", `No dashboard user signs in with ${input.email}: create the account at /sign-up first`);
    slug = row.slug;
  }
  const account = await ensureAccount(db, { slug: slug!, plan: input.plan });
  const { key, apiKey } = await createApiKey({ ctx: { account: { id: account.id, plan: account.plan }, db }, name: input.name ?? "Provisioned key", scopes: input.scopes });
  return { key, keyId: apiKey.id, accountId: account.id, plan: account.plan, scopes: apiKey.scopes };
}
