import { and, eq, gt, inArray } from "drizzle-orm";
import { audit } from "@/lib/audit/audit";
import { withTransaction, type Ctx } from "@/lib/context";
import type { Executor } from "@/lib/db/client";
import { geofences, webhooks } from "@/lib/db/schema";
import { notFound } from "@/lib/http/errors";
import { generateWebhookSecret } from "./signature";
import { bumpGeofencesVersion } from "@/lib/geofences/fence-cache";

export type Previous = { secret: string; expiresAt: Date } | null;

/** A target's previous secret from its own columns, while the rotation's overlap lasts (what previousSecretsOf reads). */
export function activePrevious(secret: string | null, expiresAt: Date | null, now = new Date()): Previous {
  return secret && expiresAt && expiresAt > now ? { secret, expiresAt } : null;
}
type Target = { geofenceId?: string | null; webhookId?: string | null };

/**
 * For deliveries about to be inserted: the previous secret of each one's target (its account endpoint, else its
 * geofence's own webhook) while a rotation's overlap lasts. Two small look-ups, only for targets that have one.
 */
export async function previousSecretsOf(executor: Executor, rows: Target[]): Promise<(row: Target) => Previous> {
  const webhookIds = [...new Set(rows.flatMap((r) => (r.webhookId ? [r.webhookId] : [])))];
  const geofenceIds = [...new Set(rows.flatMap((r) => (!r.webhookId && r.geofenceId ? [r.geofenceId] : [])))];
  const now = new Date();
  const byWebhook = new Map<string, Previous>();
  const byGeofence = new Map<string, Previous>();
  if (webhookIds.length > 0) {
    const found = await executor
      .select({ id: webhooks.id, secret: webhooks.previousSecret, expiresAt: webhooks.previousSecretExpiresAt })
      .from(webhooks)
      .where(and(inArray(webhooks.id, webhookIds), gt(webhooks.previousSecretExpiresAt, now)));
    for (const f of found) if (f.secret && f.expiresAt) byWebhook.set(f.id, { secret: f.secret, expiresAt: f.expiresAt });
  }
  if (geofenceIds.length > 0) {
    const found = await executor
      .select({ id: geofences.id, secret: geofences.previousWebhookSecret, expiresAt: geofences.previousWebhookSecretExpiresAt })
      .from(geofences)
      .where(and(inArray(geofences.id, geofenceIds), gt(geofences.previousWebhookSecretExpiresAt, now)));
    for (const f of found) if (f.secret && f.expiresAt) byGeofence.set(f.id, { secret: f.secret, expiresAt: f.expiresAt });
  }
  return (r) => (r.webhookId ? byWebhook.get(r.webhookId) : r.geofenceId ? byGeofence.get(r.geofenceId) : undefined) ?? null;
}

export interface RotateSecretInput {
  secret?: string;
  expireCurrentIn: number;
}

export interface RotatedSecret {
  secret: string;
  previousSecretExpiresAt: string | null;
}

/**
 * The new secret (the given one, or a generated whsec_ secret) replaces the current one at once; the current one
 * stays valid as the previous secret for `expireCurrentIn` seconds (none when there was no secret, or 0 seconds).
 * The update reads the current secret in the same statement, so two rotations at once cannot lose one.
 */
type Rotation = { secret: string; previous: string | null; expiresAt: Date | null };
function rotation(current: string | null, input: RotateSecretInput): Rotation {
  const secret = input.secret ?? generateWebhookSecret();
  const keep = current !== null && current !== secret && input.expireCurrentIn > 0;
  const expiresAt = keep ? new Date(Date.now() + input.expireCurrentIn * 1000) : null;
  return { secret, previous: keep ? current : null, expiresAt };
}

/** The two kinds of webhook target and the columns that hold their secrets. */
const SECRET_HOLDERS = {
  webhook: { table: webhooks, label: "Webhook", secret: webhooks.secret, set: (r: Rotation) => ({ secret: r.secret, previousSecret: r.previous, previousSecretExpiresAt: r.expiresAt }) },
  geofence: {
    table: geofences,
    label: "Geofence",
    secret: geofences.webhookSecret,
    set: (r: Rotation) => ({ webhookSecret: r.secret, previousWebhookSecret: r.previous, previousWebhookSecretExpiresAt: r.expiresAt }),
  },
} as const;

export type SecretTarget = { webhookId: string } | { geofenceId: string };

/**
 * POST /webhooks/{id}/rotate-secret and /geofences/{id}/rotate-secret: the same rotation on either kind of target
 * (an account endpoint, or a geofence's own webhook), under a row lock.
 */
export async function rotateSecret({ ctx, target, input }: { ctx: Ctx; target: SecretTarget; input: RotateSecretInput }): Promise<RotatedSecret> {
  const [kind, id] = "webhookId" in target ? (["webhook", target.webhookId] as const) : (["geofence", target.geofenceId] as const);
  const holder = SECRET_HOLDERS[kind];
  // One table at a time: the union of the two tables' types is not something drizzle's builders accept.
  const table = holder.table as typeof webhooks;
  const idColumn = kind === "webhook" ? webhooks.id : geofences.id;
  const accountColumn = kind === "webhook" ? webhooks.accountId : geofences.accountId;
  return withTransaction(ctx, async (inTx) => {
    const { tx } = inTx;
    const [row] = await tx
      .select({ secret: holder.secret })
      .from(table)
      .where(and(eq(idColumn, id), eq(accountColumn, ctx.account.id)))
      .for("update");
    if (!row) throw notFound(holder.label, id);
    const r = rotation(row.secret, input);
    await tx
      .update(table)
      .set({ ...(holder.set(r) as Partial<typeof webhooks.$inferInsert>), updatedAt: new Date() })
      .where(eq(idColumn, id));
    // Evaluation caches the geofence, secret included (lib/geofences/fence-cache.ts).
    if (kind === "geofence") await bumpGeofencesVersion(tx, ctx.account.id);
    const field = kind === "webhook" ? "secret" : "webhookSecret";
    await audit(inTx, { action: `${kind}.secretRotated`, objectType: kind, objectId: id, before: { [field]: row.secret }, after: { [field]: r.secret, previousSecretExpiresAt: r.expiresAt } });
    return { secret: r.secret, previousSecretExpiresAt: r.expiresAt?.toISOString() ?? null };
  });
}
