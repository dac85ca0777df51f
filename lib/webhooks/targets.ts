import { and, eq, gt, inArray, isNull, type SQL } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { geofences, webhookDeliveries, webhooks, type GeofenceRow } from "@/lib/db/schema";
import { bumpGeofencesVersion } from "@/lib/geofences/fence-cache";
import { notFound } from "@/lib/http/errors";

// The two kinds of webhook target, an account endpoint (/webhooks) and a geofence's own webhook, behind one shape:
// rotate-secret, recover and the test delivery are each written once over it (rotation.ts, delivery-history.ts,
// test-webhook.ts). Each kind says where its URL and secrets live and which deliveries are its own.

/** A target as the API names it. */
export type TargetRef = { webhookId: string } | { geofenceId: string };

/** A rotation's outcome: the new secret, and the previous one kept until `expiresAt` (none: both null). */
export type Rotation = { secret: string; previous: string | null; expiresAt: Date | null };

/** A target as it is configured now. */
export interface WebhookTarget {
  /** Its reference, which also names it on its deliveries (webhookId or geofenceId). */
  ref: TargetRef;
  url: string | null;
  secret: string | null;
  /** The geofence's row, for a geofence's own webhook (its test payload is about it). */
  geofence?: GeofenceRow;
}

export interface TargetKind {
  /** The noun of its 404. */
  label: "Webhook" | "Geofence";
  /** How the audit log names it, and the column its current secret is in. */
  objectType: "webhook" | "geofence";
  secretField: "secret" | "webhookSecret";
  /** The target of the account with this id (its row locked for update when `lock`), or null. */
  find(executor: Executor, accountId: string, id: string, lock: boolean): Promise<WebhookTarget | null>;
  /** Stores a rotation's secrets, and tells those who cache the target. */
  writeSecrets(executor: Executor, accountId: string, id: string, r: Rotation): Promise<void>;
  /** The previous secrets of these targets while their overlap lasts, by id. */
  previousSecrets(executor: Executor, ids: string[], now: Date): Promise<Map<string, { secret: string; expiresAt: Date }>>;
  /** Which deliveries were sent to the target (a geofence's own webhook: not the endpoints that had its events). */
  deliveries(id: string): SQL | undefined;
  /** Why a test delivery cannot be sent to the target, or null. */
  testRefusal(target: WebhookTarget): string | null;
  /** How a test's answer names the event ("entry" for a geofence's webhook, the event type for an endpoint). */
  testLabel(event: string): string;
}

const endpoint: TargetKind = {
  label: "Webhook",
  objectType: "webhook",
  secretField: "secret",
  async find(executor, accountId, id, lock) {
    const q = executor
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.id, id), eq(webhooks.accountId, accountId)))
      .limit(1);
    const [w] = lock ? await q.for("update") : await q;
    return w ? { ref: { webhookId: w.id }, url: w.url, secret: w.secret } : null;
  },
  async writeSecrets(executor, _accountId, id, r) {
    await executor
      .update(webhooks)
      .set({ secret: r.secret, previousSecret: r.previous, previousSecretExpiresAt: r.expiresAt, updatedAt: new Date() })
      .where(eq(webhooks.id, id));
  },
  async previousSecrets(executor, ids, now) {
    const found = await executor
      .select({ id: webhooks.id, secret: webhooks.previousSecret, expiresAt: webhooks.previousSecretExpiresAt })
      .from(webhooks)
      .where(and(inArray(webhooks.id, ids), gt(webhooks.previousSecretExpiresAt, now)));
    return new Map(found.flatMap((f) => (f.secret && f.expiresAt ? [[f.id, { secret: f.secret, expiresAt: f.expiresAt }] as const] : [])));
  },
  deliveries: (id) => eq(webhookDeliveries.webhookId, id),
  testRefusal: () => null,
  testLabel: (event) => event,
};

const geofence: TargetKind = {
  label: "Geofence",
  objectType: "geofence",
  secretField: "webhookSecret",
  async find(executor, accountId, id, lock) {
    const q = executor
      .select()
      .from(geofences)
      .where(and(eq(geofences.id, id), eq(geofences.accountId, accountId)))
      .limit(1);
    const [g] = lock ? await q.for("update") : await q;
    return g ? { ref: { geofenceId: g.id }, url: g.webhookUrl, secret: g.webhookSecret, geofence: g } : null;
  },
  async writeSecrets(executor, accountId, id, r) {
    await executor
      .update(geofences)
      .set({ webhookSecret: r.secret, previousWebhookSecret: r.previous, previousWebhookSecretExpiresAt: r.expiresAt, updatedAt: new Date() })
      .where(eq(geofences.id, id));
    // Evaluation caches the geofence, secret included (lib/geofences/fence-cache.ts).
    await bumpGeofencesVersion(executor, accountId);
  },
  async previousSecrets(executor, ids, now) {
    const found = await executor
      .select({ id: geofences.id, secret: geofences.previousWebhookSecret, expiresAt: geofences.previousWebhookSecretExpiresAt })
      .from(geofences)
      .where(and(inArray(geofences.id, ids), gt(geofences.previousWebhookSecretExpiresAt, now)));
    return new Map(found.flatMap((f) => (f.secret && f.expiresAt ? [[f.id, { secret: f.secret, expiresAt: f.expiresAt }] as const] : [])));
  },
  deliveries: (id) => and(eq(webhookDeliveries.geofenceId, id), isNull(webhookDeliveries.webhookId)),
  testRefusal: (t) =>
    t.geofence?.notificationType !== "webhook" || !t.url
      ? 'Webhook notifications are not enabled for this geofence: set notificationType to "webhook" and a webhookUrl'
      : null,
  testLabel: (event) => event.replace(/^geofence\./, ""),
};

export const TARGET_KINDS = { webhook: endpoint, geofence } as const;

/** The kind of a reference and its id. */
export function kindOf(ref: TargetRef): { kind: TargetKind; id: string } {
  return "webhookId" in ref ? { kind: endpoint, id: ref.webhookId } : { kind: geofence, id: ref.geofenceId };
}

/** The account's target (locked for update when `lock`, inside a transaction); 404 when there is none. */
export async function requireTarget(executor: Executor, accountId: string, ref: TargetRef, { lock = false } = {}): Promise<WebhookTarget> {
  const { kind, id } = kindOf(ref);
  const target = await kind.find(executor, accountId, id, lock);
  if (!target) throw notFound(kind.label, id);
  return target;
}
