import { and, eq, gt, inArray } from "drizzle-orm";
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
function rotation(current: string | null, input: RotateSecretInput) {
  const secret = input.secret ?? generateWebhookSecret();
  const keep = current !== null && current !== secret && input.expireCurrentIn > 0;
  const expiresAt = keep ? new Date(Date.now() + input.expireCurrentIn * 1000) : null;
  return { secret, previous: keep ? current : null, expiresAt };
}

export async function rotateWebhookSecret({ ctx, id, input }: { ctx: Ctx; id: string; input: RotateSecretInput }): Promise<RotatedSecret> {
  return withTransaction(ctx, async ({ tx }) => {
    const [row] = await tx
      .select({ secret: webhooks.secret })
      .from(webhooks)
      .where(and(eq(webhooks.id, id), eq(webhooks.accountId, ctx.account.id)))
      .for("update");
    if (!row) throw notFound("Webhook", id);
    const r = rotation(row.secret, input);
    await tx
      .update(webhooks)
      .set({ secret: r.secret, previousSecret: r.previous, previousSecretExpiresAt: r.expiresAt, updatedAt: new Date() })
      .where(eq(webhooks.id, id));
    return { secret: r.secret, previousSecretExpiresAt: r.expiresAt?.toISOString() ?? null };
  });
}

export async function rotateGeofenceSecret({ ctx, id, input }: { ctx: Ctx; id: string; input: RotateSecretInput }): Promise<RotatedSecret> {
  return withTransaction(ctx, async ({ tx }) => {
    const [row] = await tx
      .select({ secret: geofences.webhookSecret })
      .from(geofences)
      .where(and(eq(geofences.id, id), eq(geofences.accountId, ctx.account.id)))
      .for("update");
    if (!row) throw notFound("Geofence", id);
    const r = rotation(row.secret, input);
    await tx
      .update(geofences)
      .set({ webhookSecret: r.secret, previousWebhookSecret: r.previous, previousWebhookSecretExpiresAt: r.expiresAt, updatedAt: new Date() })
      .where(eq(geofences.id, id));
    // Evaluation caches the geofence, secret included (lib/geofences/fence-cache.ts).
    await bumpGeofencesVersion(tx, ctx.account.id);
    return { secret: r.secret, previousSecretExpiresAt: r.expiresAt?.toISOString() ?? null };
  });
}
