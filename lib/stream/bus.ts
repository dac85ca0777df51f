import { log } from "@/lib/log/logger";
import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import type postgresType from "postgres";
import { env } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { events, type EventRow } from "@/lib/db/schema";
import { onEventsCommitted } from "@/lib/events/record";
import type { RecordedEvent } from "@/lib/events/produced";
import { encodeCursor } from "@/lib/http/pagination";
import { watchState } from "./watch";

// The live streams' bus: after a commit, each event becomes a frame that reaches every open stream of its account on
// this server at once, and the other servers of a scale-out through Postgres LISTEN/NOTIFY (one connection per
// server listens, one notifies, in commit order). A NOTIFY payload holds at most 8000 bytes: frames are sent in
// notifications under that size, and a recorded event too large for one is sent as its id and read from the log.

/** One event as a stream sends it. */
export interface Frame {
  type: string;
  trackableId: string;
  geofenceId: string | null;
  /** The recorded event's id (null for location.updated). */
  eventId: string | null;
  /** The `id:` of the frame: the events-log cursor of a recorded event (null for location.updated). */
  cursor: string | null;
  /** The `data:` line: the webhook payload plus "id". */
  data: string;
  /**
   * A change notice, not an event: something the dashboard shows changed (a delivery's status, a trackable renamed).
   * Only the dashboard's stream reads these; the public stream skips them.
   */
  notice?: true;
}

/** What a change notice is about (its frame's type); "member": a member left the workspace (data: `{"userId"}`). */
export type NoticeKind = "delivery" | "trackable" | "geofence" | "member";

export type FrameListener = (frames: readonly Frame[]) => void;

const CHANNEL = "fenceline_stream";
const NOTIFY_MAX_BYTES = 7900;
/** Servers announce the accounts they stream this often; an announcement holds for WATCH_TTL_MS. */
const ANNOUNCE_EVERY_MS = 10_000;
const WATCH_TTL_MS = 30_000;

export type Message =
  | { k: "f"; s: string; a: string; f: Frame[] }
  | { k: "r"; s: string; a: string; ids: string[] }
  | { k: "w"; s: string; a: string[] };

interface BusState {
  serverId: string;
  listeners: Map<string, Set<FrameListener>>;
  started: Promise<void> | null;
  sql: ReturnType<typeof postgresType> | null;
  announcer: NodeJS.Timeout | null;
  /** Remote messages are handled one after the other (a read of rows must not let a later frame overtake it). */
  queue: Promise<void>;
  offHook: (() => void) | null;
}

const shared = globalThis as unknown as { __fencelineStreamBus?: BusState };
const bus = (): BusState =>
  (shared.__fencelineStreamBus ??= {
    serverId: randomUUID(),
    listeners: new Map(),
    started: null,
    sql: null,
    announcer: null,
    queue: Promise.resolve(),
    offHook: null,
  });

export const cursorOf = (occurredAt: Date, id: string): string => encodeCursor({ occurredAt: occurredAt.toISOString(), id });

/** A recorded or live event as its frame; null when it has no payload (nothing is sent for it). */
export function frameOf(e: RecordedEvent): Frame | null {
  if (!e.payload) return null;
  return {
    type: e.type,
    trackableId: e.trackableId,
    geofenceId: e.geofenceId ?? null,
    eventId: e.id,
    cursor: e.id ? cursorOf(e.occurredAt, e.id) : null,
    data: JSON.stringify({ ...e.payload, id: e.id }),
  };
}

/** A row of the events log as its frame (replay, and events too large for a notification). */
export function frameOfRow(row: EventRow): Frame | null {
  if (!row.payload) return null;
  return {
    type: row.type,
    trackableId: row.trackableId,
    geofenceId: row.geofenceId,
    eventId: row.id,
    cursor: cursorOf(row.occurredAt, row.id),
    data: JSON.stringify({ ...row.payload, id: row.id }),
  };
}

/** Starts the bus once per process: the commit hook, and on Postgres the LISTEN connection and the announcements. */
export function startStreamBus(): Promise<void> {
  const state = bus();
  state.started ??= (async () => {
    state.offHook = onEventsCommitted((committed, live) => publish(committed, live));
    const url = env().DATABASE_URL;
    if (!url) return;
    const { default: postgres } = await import("postgres");
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    await sql.listen(CHANNEL, (payload) => {
      state.queue = state.queue.then(() => onMessage(payload)).catch((err: unknown) => log.error("[stream] a notification failed", err));
    });
    state.sql = sql;
    state.announcer = setInterval(() => announce([...watchState().local.keys()]), ANNOUNCE_EVERY_MS);
    state.announcer.unref();
  })().catch((err: unknown) => {
    state.started = null;
    throw err;
  });
  return state.started;
}

/** Stops the bus (server shutdown). */
export async function stopStreamBus(): Promise<void> {
  const state = bus();
  if (state.announcer) clearInterval(state.announcer);
  state.announcer = null;
  state.offHook?.();
  state.offHook = null;
  const sql = state.sql;
  state.sql = null;
  state.started = null;
  await sql?.end({ timeout: 2 }).catch(() => {});
}

/**
 * Listens to the account's frames on every server; returns the function that stops listening. With `locations`
 * (the default) the listener wants location.updated too: the account is then watched (lib/stream/watch.ts), and
 * every server builds those events for it. A listener whose filter leaves them out does not ask for them, so an
 * account whose open streams want only geofence events builds no frame per location.
 */
export async function subscribe(accountId: string, listener: FrameListener, opts: { locations?: boolean } = {}): Promise<() => void> {
  const locations = opts.locations ?? true;
  await startStreamBus();
  const state = bus();
  const set = state.listeners.get(accountId) ?? new Set();
  state.listeners.set(accountId, set);
  set.add(listener);
  const local = watchState().local;
  if (locations) {
    const first = (local.get(accountId) ?? 0) === 0;
    local.set(accountId, (local.get(accountId) ?? 0) + 1);
    // The other servers start building this account's location.updated events from now on.
    if (first) await announce([accountId]);
  }
  return () => {
    set.delete(listener);
    if (set.size === 0) state.listeners.delete(accountId);
    if (!locations) return;
    const n = (local.get(accountId) ?? 1) - 1;
    if (n <= 0) local.delete(accountId);
    else local.set(accountId, n);
  };
}

function deliver(accountId: string, frames: readonly Frame[]): void {
  if (frames.length === 0) return;
  const set = bus().listeners.get(accountId);
  if (!set) return;
  for (const listener of set) {
    try {
      listener(frames);
    } catch (err) {
      log.error("[stream] a listener failed", err);
    }
  }
}

/** After a commit: the frames to this server's streams, and to the other servers'. */
function publish(committed: readonly RecordedEvent[], live: readonly RecordedEvent[]): void {
  const byAccount = new Map<string, Frame[]>();
  const shared = bus().sql !== null;
  for (const e of [...committed, ...live]) {
    // Alone (embedded), an account with no stream open here costs nothing: no frame is built.
    if (!shared && !bus().listeners.has(e.accountId)) continue;
    const frame = frameOf(e);
    if (!frame) continue;
    const list = byAccount.get(e.accountId) ?? [];
    list.push(frame);
    byAccount.set(e.accountId, list);
  }
  for (const [accountId, frames] of byAccount) {
    deliver(accountId, frames);
    if (bus().sql) notifyFrames(accountId, frames);
  }
}

/**
 * After a commit that changed something the dashboard shows live but records no event for: a notice to the account's
 * streams on this server and, like the events' frames, on the others.
 */
export function publishNotice(accountId: string, kind: NoticeKind, trackableId: string | null = null, data: Record<string, string> = {}): void {
  const frame: Frame = { type: kind, trackableId: trackableId ?? "", geofenceId: null, eventId: null, cursor: null, data: JSON.stringify(data), notice: true };
  deliver(accountId, [frame]);
  if (bus().sql) notifyFrames(accountId, [frame]);
}

/**
 * The frames as the notifications that carry them, in order, each as its JSON text (a Message) of at most `maxBytes`
 * bytes; a frame too large for one alone is sent as its event's id (read back from the log), or left out when it has
 * none. Each frame is serialized once: a notification's text is its frames' texts joined.
 */
export function packFrames(serverId: string, accountId: string, frames: readonly Frame[], maxBytes = NOTIFY_MAX_BYTES): string[] {
  const out: string[] = [];
  const head = `{"k":"f","s":${JSON.stringify(serverId)},"a":${JSON.stringify(accountId)},"f":[`;
  const base = Buffer.byteLength(head) + 2; // and "]}"
  let batch: string[] = [];
  let bytes = base;
  const flush = () => {
    if (batch.length > 0) out.push(`${head}${batch.join(",")}]}`);
    batch = [];
    bytes = base;
  };
  for (const frame of frames) {
    const text = JSON.stringify(frame);
    const own = Buffer.byteLength(text);
    if (base + own > maxBytes) {
      flush();
      if (frame.eventId) out.push(JSON.stringify({ k: "r", s: serverId, a: accountId, ids: [frame.eventId] } satisfies Message));
      continue;
    }
    // After the first frame each adds a comma too.
    if (bytes + own + (batch.length > 0 ? 1 : 0) > maxBytes) flush();
    bytes += own + (batch.length > 0 ? 1 : 0);
    batch.push(text);
  }
  flush();
  return out;
}

function notifyFrames(accountId: string, frames: readonly Frame[]): void {
  for (const text of packFrames(bus().serverId, accountId, frames)) void notify(text);
}

async function notify(text: string): Promise<void> {
  const sql = bus().sql;
  if (!sql) return;
  try {
    await sql.notify(CHANNEL, text);
  } catch (err) {
    log.error("[stream] NOTIFY failed", err);
  }
}

async function announce(accountIds: string[]): Promise<void> {
  if (accountIds.length === 0 || !bus().sql) return;
  // Account ids are 36 characters: ~180 of them per notification.
  for (let i = 0; i < accountIds.length; i += 180) await notify(JSON.stringify({ k: "w", s: bus().serverId, a: accountIds.slice(i, i + 180) } satisfies Message));
}

/**
 * Whether a notification is this server's own: every message's text starts `{"k":"<kind>","s":"<server id>"` (the
 * key order it is written in), so this server's own, which it hears too, are passed over without being parsed.
 */
export const isOwnMessage = (payload: string, serverId: string): boolean => payload.startsWith(`,"s":${JSON.stringify(serverId)},`, 8);

async function onMessage(payload: string): Promise<void> {
  if (isOwnMessage(payload, bus().serverId)) return;
  const message = JSON.parse(payload) as Message;
  if (message.k === "w") {
    const now = Date.now();
    const remote = watchState().remote;
    // Announcements that lapsed (their streams closed) go as the next ones come.
    for (const [a, until] of remote) if (until <= now) remote.delete(a);
    for (const a of message.a) remote.set(a, now + WATCH_TTL_MS);
    return;
  }
  if (message.k === "f") return deliver(message.a, message.f);
  if (!bus().listeners.has(message.a)) return;
  const db = await getDb();
  const rows = await db
    .select()
    .from(events)
    .where(and(eq(events.accountId, message.a), inArray(events.id, message.ids)));
  deliver(message.a, rows.map(frameOfRow).filter((f): f is Frame => f !== null));
}
