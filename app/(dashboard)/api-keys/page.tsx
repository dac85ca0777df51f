import type { Metadata } from "next";
import { ApiKeysManager } from "@/components/api-keys/api-keys-manager";
import { PageHeader } from "@/components/ui";
import { listApiKeys } from "@/lib/api-keys/keys";
import { requireSession } from "@/lib/auth/session";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  const { ctx } = await requireSession({ permission: "apiKeys.manage" });
  const keys = await listApiKeys({ db: ctx.db, accountId: ctx.account.id });
  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Keys authenticate calls to <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">/api/v1</code> with{" "}
            <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">Authorization: Bearer &lt;key&gt;</code>. Treat
            them like passwords.
          </>
        }
      />
      <ApiKeysManager
        keys={keys.map((k) => ({
          id: k.id,
          name: k.name,
          start: k.start,
          scopes: k.scopes,
          createdAt: k.createdAt.toISOString(),
          lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
          revokedAt: k.revokedAt?.toISOString() ?? null,
        }))}
      />
    </>
  );
}
