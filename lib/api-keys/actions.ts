"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/keys";
import { FULL_ACCESS, ScopeList } from "@/lib/api-keys/scopes";
import { requireSignedIn } from "@/lib/auth/session";
import { forbiddenResult } from "@/lib/dashboard/action";
import { can } from "@/lib/teams/roles";

const Name = z.string().trim().min(1, "Give the key a name.").max(100, "A key name has at most 100 characters.");

export type CreateKeyResult =
  | { ok: true; key: string; start: string }
  | { ok: false; error?: string; code?: string; fieldErrors: { name?: string; scopes?: string } };

/** Creates a key for the signed-in user's account; the plaintext is returned here once and never again. */
export async function createApiKeyAction(input: { name: string; scopes?: string[] }): Promise<CreateKeyResult> {
  const { ctx, role } = await requireSignedIn();
  if (!can(role, "apiKeys.manage")) return forbiddenResult("apiKeys.manage");
  const name = Name.safeParse(input.name);
  const scopes = ScopeList.safeParse(input.scopes ?? [FULL_ACCESS]);
  if (!name.success || !scopes.success) {
    return {
      ok: false,
      fieldErrors: {
        ...(name.success ? {} : { name: name.error.issues[0]!.message }),
        ...(scopes.success ? {} : { scopes: "Choose at least one scope, or full access." }),
      },
    };
  }
  const { key, apiKey } = await createApiKey({ ctx, name: name.data, scopes: scopes.data });
  revalidatePath("/api-keys");
  return { ok: true, key, start: apiKey.start };
}

export async function revokeApiKeyAction(input: { id: string }): Promise<{ ok: boolean; code?: string }> {
  const { ctx, role } = await requireSignedIn();
  if (!can(role, "apiKeys.manage")) return forbiddenResult("apiKeys.manage");
  const id = z.uuid().safeParse(input.id);
  if (!id.success) return { ok: false };
  const ok = await revokeApiKey({ ctx, id: id.data });
  revalidatePath("/api-keys");
  return { ok };
}
