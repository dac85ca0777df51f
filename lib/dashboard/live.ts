import { createHash } from "node:crypto";
import { and, count, desc, eq, max, sql, sum } from "drizzle-orm";
import { exec, type Ctx } from "@/lib/context";
import { events, geofenceMemberships, geofences, locations, trackableStates, trackables, webhookDeliveries } from "@/lib/db/schema";
import { lastLocationLateral } from "@/lib/trackables/trackables";

// The dashboard's live pages poll a fingerprint of what they show and re-render when it changes. It is computed from
// the database on every call (never from one server's memory), so it holds behind a load balancer; each part is an
// index probe or an aggregate over one account's rows.

export const LIVE_SCOPES = ["trackables", "trackable", "geofences", "deliveries", "events"] as const;
export type LiveScope = (typeof LIVE_SCOPES)[number];

type Part = () => Promise<unknown>;

const iso = (d: Date | string | null | undefined) => (d == null ? null : new Date(d).toISOString());

/** A short hash of what the page of `scope` shows for the account (and the trackable, for scope "trackable"). */
export async function liveFingerprint({ ctx, scope, trackableId }: { ctx: Ctx; scope: LiveScope; trackableId?: string }): Promise<string> {
  const db = exec(ctx);
  const accountId = ctx.account.id;

  const trackableRows: Part = async () => {
    const [r] = await db.select({ n: count(), at: max(trackables.updatedAt) }).from(trackables).where(eq(trackables.accountId, accountId));
    return [Number(r?.n ?? 0), iso(r?.at)];
  };
  // Each trackable's newest point (the fleet map and "last seen"): one backward index probe per trackable.
  const latestPoints: Part = async () => {
    const last = lastLocationLateral(ctx);
    const [r] = await db
      .select({ n: count(last.columns.id), at: max(last.columns.receivedAt), ts: max(last.columns.timestamp) })
      .from(trackables)
      .leftJoinLateral(last.subquery, sql`true`)
      .where(eq(trackables.accountId, accountId));
    return [Number(r?.n ?? 0), iso(r?.at), iso(r?.ts)];
  };
  // Online/offline and the evaluated position, changed by evaluation and the offline sweep.
  const states: Part = async () => {
    const [r] = await db
      .select({ at: max(trackableStates.updatedAt), status: count(trackableStates.status) })
      .from(trackableStates)
      .innerJoin(trackables, eq(trackables.id, trackableStates.trackableId))
      .where(and(eq(trackables.accountId, accountId), trackableId ? eq(trackables.id, trackableId) : undefined));
    return [iso(r?.at), Number(r?.status ?? 0)];
  };
  const geofenceRows: Part = async () => {
    const [r] = await db.select({ n: count(), at: max(geofences.updatedAt) }).from(geofences).where(eq(geofences.accountId, accountId));
    return [Number(r?.n ?? 0), iso(r?.at)];
  };
  const memberships: Part = async () => {
    const [r] = await db
      .select({ n: count(), at: max(geofenceMemberships.enteredAt) })
      .from(geofenceMemberships)
      .innerJoin(geofences, eq(geofences.id, geofenceMemberships.geofenceId))
      .where(and(eq(geofences.accountId, accountId), trackableId ? eq(geofenceMemberships.trackableId, trackableId) : undefined));
    return [Number(r?.n ?? 0), iso(r?.at)];
  };
  const latestEvent: Part = async () => {
    const [r] = await db
      .select({ id: events.id, at: events.occurredAt })
      .from(events)
      .where(and(eq(events.accountId, accountId), trackableId ? eq(events.trackableId, trackableId) : undefined))
      .orderBy(desc(events.occurredAt), desc(events.id))
      .limit(1);
    return r ? [r.id, iso(r.at)] : null;
  };
  // The newest delivery, and the pending ones (their attempts and status change until they settle).
  const deliveries: Part = async () => {
    const [newest] = await db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.accountId, accountId))
      .orderBy(desc(webhookDeliveries.id))
      .limit(1);
    const [pending] = await db
      .select({ n: count(), at: max(webhookDeliveries.updatedAt), attempts: sum(webhookDeliveries.attemptCount) })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.accountId, accountId), eq(webhookDeliveries.status, "pending")));
    return [newest?.id ?? null, Number(pending?.n ?? 0), iso(pending?.at), String(pending?.attempts ?? 0)];
  };
  // One trackable: itself, its newest point (one index probe), its state, events and geofences.
  const trackable: Part = async () => {
    const [t] = await db
      .select({ at: trackables.updatedAt })
      .from(trackables)
      .where(and(eq(trackables.id, trackableId!), eq(trackables.accountId, accountId)))
      .limit(1);
    // Gone (deleted while the page is open) or never this account's: a fingerprint like any other, so the open page
    // re-renders into its not-found state instead of polling into 404s; an id of another account answers exactly as
    // an unknown one (every other part is filtered by account), so nothing leaks.
    if (!t) return "no such trackable";
    const [p] = await db
      .select({ id: locations.id, at: locations.receivedAt })
      .from(locations)
      .where(eq(locations.trackableId, trackableId!))
      .orderBy(desc(locations.timestamp), desc(locations.id))
      .limit(1);
    return [iso(t.at), p?.id ?? null, iso(p?.at)];
  };

  const parts: Record<LiveScope, Part[]> = {
    trackables: [trackableRows, latestPoints, states],
    trackable: [trackable, states, latestEvent, memberships, geofenceRows],
    geofences: [geofenceRows, memberships, trackableRows, latestPoints, latestEvent],
    deliveries: [deliveries],
    events: [latestEvent, trackableRows, geofenceRows],
  };
  if (scope === "trackable" && !trackableId) throw new Error("liveFingerprint: scope trackable needs a trackableId");
  const values = [];
  for (const part of parts[scope]) values.push(await part()); // one at a time: PGlite has a single connection anyway
  return createHash("sha256").update(JSON.stringify(values)).digest("base64url").slice(0, 22);
}
