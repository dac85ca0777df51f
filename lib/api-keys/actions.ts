"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/keys";
import { requireSession } from "@/lib/auth/session";

const Name = z.string().trim().min(1, "Give the key a name.").max(100, "A key name has at most 100 characters.");

export type CreateKeyResult = { ok: true; key: string; start: string } | { ok: false; fieldErrors: { name?: string } };

/** Creates a key for the signed-in user's account; the plaintext is returned here once and never again. */
export async function createApiKeyAction(input: { name: string }): Promise<CreateKeyResult> {
  const { ctx } = await requireSession();
  const name = Name.safeParse(input.name);
  if (!name.success) return { ok: false, fieldErrors: { name: name.error.issues[0]!.message } };
  const { key, apiKey } = await createApiKey({ db: ctx.db, accountId: ctx.account.id, name: name.data });
  revalidatePath("/api-keys");
  return { ok: true, key, start: apiKey.start };
}

export async function revokeApiKeyAction(input: { id: string }): Promise<{ ok: boolean }> {
  const { ctx } = await requireSession();
  const id = z.uuid().safeParse(input.id);
  if (!id.success) return { ok: false };
  const ok = await revokeApiKey({ db: ctx.db, accountId: ctx.account.id, id: id.data });
  revalidatePath("/api-keys");
  return { ok };
}
