import type { AccountRef } from "@/lib/context";
import { insertUnnested } from "@/lib/db/bulk";
import type { Tx } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { metrics } from "@/lib/metrics/registry";
import { events, type NewEventRow } from "@/lib/db/schema";
import { CONSUMERS, type EventConsumer } from "./consumers";
import type { Prefetched, ProducedEvent, RecordedEvent } from "./produced";
import { EVENTS } from "./registry";
import { log } from "@/lib/log/logger";

/** What recordEvents did in a transaction, for eventsCommitted to act on once it has committed. */
export interface Recording {
  /** Every event handed in, in order; the recorded ones carry their id. */
  events: RecordedEvent[];
  /** What each consumer started, by its name (webhooks: deliveries). */
  started: Record<string, number>;
}

/** Deliveries the webhook consumer started in these recordings. */
export const deliveriesOf = (...recordings: Recording[]): number => recordings.reduce((n, r) => n + (r.started.webhooks ?? 0), 0);

/**
 * Whether any consumer would use an event of this type of the account: a producer builds an unrecorded event (one
 * location.updated per point) only then.
 */
export function wanted(type: string, account: AccountRef, prefetched: Prefetched = {}): boolean {
  return EVENTS.isRecorded(type) || CONSUMERS.some((c) => c.wants(type, account, prefetched));
}

/**
 * The one way events enter the system. Records the recorded types in the caller's transaction (on every plan, with
 * their payloads), then hands every event to the consumers in the same transaction (the webhook fan-out, whose
 * deliveries carry the event's id): one statement for the events and the consumers' writes issued right behind it,
 * one round trip. The events become the Recording's (each is given its id). Call eventsCommitted with the result
 * after the transaction commits.
 */
export async function recordEvents(tx: Tx, account: AccountRef, produced: readonly ProducedEvent[], prefetched: Prefetched = {}): Promise<Recording> {
  if (produced.length === 0) return { events: [], started: {} };
  const rows: NewEventRow[] = [];
  const recorded: RecordedEvent[] = [];
  for (const e of produced) {
    const id = EVENTS.isRecorded(e.type) ? newId() : null;
    if (id) {
      rows.push({
        id,
        accountId: account.id,
        type: e.type as NewEventRow["type"],
        trackableId: e.trackableId,
        geofenceId: e.geofenceId ?? null,
        occurredAt: e.occurredAt,
        location: e.location ?? null,
        reason: e.reason ?? null,
        durationSeconds: e.durationSeconds ?? null,
        confidence: e.confidence ?? null,
        tripId: e.tripId ?? undefined,
        payload: e.payload,
      });
    }
    // The producer's own object, given its id (no copy per event: location.updated makes one per point).
    const r = e as RecordedEvent;
    r.id = id;
    r.accountId = account.id;
    recorded.push(r);
  }
  // Issued together: the events' insert goes out first, the consumers' writes that reference them behind it.
  const [, ...counts] = await Promise.all([insertUnnested(tx, events, rows), ...CONSUMERS.map((c) => c.consume(tx, account, recorded, prefetched))]);
  return { events: recorded, started: Object.fromEntries(CONSUMERS.map((c, i) => [c.name, counts[i]!])) };
}

/**
 * Called with the events a transaction recorded, once it has committed (see onEventsCommitted), and with the
 * unrecorded events the producers built for a consumer that wanted them (location.updated, for live streams).
 */
export type CommitHook = (events: readonly RecordedEvent[], live: readonly RecordedEvent[]) => void;
// On globalThis: the app server's own bundle and Next.js's hold separate copies of this module, and a hook registered
// by either must see the events that either commits.
const shared = globalThis as unknown as { __fencelineCommitHooks?: Set<CommitHook> };
const hooks = (shared.__fencelineCommitHooks ??= new Set<CommitHook>());

/**
 * Registers a hook that sees every recorded event of this process once its transaction has committed, exactly once
 * (the seam of live streams and notifications). Returns a function that removes it.
 */
export function onEventsCommitted(hook: CommitHook): () => void {
  hooks.add(hook);
  return () => void hooks.delete(hook);
}

/** After the commit of the transaction that made these recordings: the consumers' follow-up and the commit hooks. */
export function eventsCommitted(...recordings: Recording[]): void {
  const counter = metrics().events;
  // The events log's events: an unrecorded one (location.updated) exists only while some consumer wants it.
  for (const r of recordings) for (const e of r.events) if (e.id !== null) counter.inc({ type: e.type });
  for (const consumer of CONSUMERS as readonly EventConsumer[]) {
    const started = recordings.reduce((n, r) => n + (r.started[consumer.name] ?? 0), 0);
    if (started > 0) consumer.committed?.(started);
  }
  if (hooks.size === 0) return;
  const committed: RecordedEvent[] = [];
  const live: RecordedEvent[] = [];
  for (const r of recordings) for (const e of r.events) (e.id !== null ? committed : live).push(e);
  if (committed.length === 0 && live.length === 0) return;
  for (const hook of hooks) {
    try {
      hook(committed, live);
    } catch (err) {
      log.error("[events] a commit hook failed", err);
    }
  }
}
