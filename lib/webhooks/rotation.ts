import { audit } from "@/lib/audit/audit";
import { withTransaction, type Ctx } from "@/lib/context";
import type { Executor } from "@/lib/db/client";
import { generateWebhookSecret } from "./signature";
import { kindOf, requireTarget, TARGET_KINDS, type Rotation, type TargetRef } from "./targets";

export type Previous = { secret: string; expiresAt: Date } | null;

/** A target's previous secret from its own columns, while the rotation's overlap lasts (what previousSecretsOf reads). */
export function activePrevious(secret: string | null, expiresAt: Date | null, now = new Date()): Previous {
  return secret && expiresAt && expiresAt > now ? { secret, expiresAt } : null;
}
type Delivered = { geofenceId?: string | null; webhookId?: string | null };

/**
 * For deliveries about to be inserted: the previous secret of each one's target (its account endpoint, else its
 * geofence's own webhook) while a rotation's overlap lasts. One small look-up per kind, only for targets that have one.
 */
export async function previousSecretsOf(executor: Executor, rows: Delivered[]): Promise<(row: Delivered) => Previous> {
  const webhookIds = [...new Set(rows.flatMap((r) => (r.webhookId ? [r.webhookId] : [])))];
  const geofenceIds = [...new Set(rows.flatMap((r) => (!r.webhookId && r.geofenceId ? [r.geofenceId] : [])))];
  const now = new Date();
  const none = new Map<string, Previous>();
  const byWebhook = webhookIds.length > 0 ? await TARGET_KINDS.webhook.previousSecrets(executor, webhookIds, now) : none;
  const byGeofence = geofenceIds.length > 0 ? await TARGET_KINDS.geofence.previousSecrets(executor, geofenceIds, now) : none;
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
 */
function rotation(current: string | null, input: RotateSecretInput): Rotation {
  const secret = input.secret ?? generateWebhookSecret();
  const keep = current !== null && current !== secret && input.expireCurrentIn > 0;
  const expiresAt = keep ? new Date(Date.now() + input.expireCurrentIn * 1000) : null;
  return { secret, previous: keep ? current : null, expiresAt };
}

/**
 * POST /webhooks/{id}/rotate-secret and /geofences/{id}/rotate-secret: the same rotation on either kind of target
 * (an account endpoint, or a geofence's own webhook). The target's row is locked while its current secret is read
 * and replaced, so two rotations at once cannot lose one.
 */
export async function rotateSecret({ ctx, target, input }: { ctx: Ctx; target: TargetRef; input: RotateSecretInput }): Promise<RotatedSecret> {
  return withTransaction(ctx, async (inTx) => {
    const { tx } = inTx;
    const current = await requireTarget(tx, ctx.account.id, target, { lock: true });
    const r = rotation(current.secret, input);
    const { kind, id } = kindOf(target);
    await kind.writeSecrets(tx, ctx.account.id, id, r);
    const field = kind.secretField;
    await audit(inTx, {
      action: `${kind.objectType}.secretRotated`,
      objectType: kind.objectType,
      objectId: id,
      before: { [field]: current.secret },
      after: { [field]: r.secret, previousSecretExpiresAt: r.expiresAt },
    });
    return { secret: r.secret, previousSecretExpiresAt: r.expiresAt?.toISOString() ?? null };
  });
}
