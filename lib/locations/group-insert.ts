import type { Ctx } from "@/lib/context";
import { env } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { GroupCommit } from "@/lib/db/group-commit";
import { queryRows } from "@/lib/db/rows";
import type { LocationRow } from "@/lib/db/schema";
import { JOIN_QUEUED_RUN } from "@/lib/jobs/client";
import { log } from "@/lib/log/logger";

// Concurrent posts (API and devices) stored together: the posts that arrive while the previous group's statement runs
// are stored by the next one, ONE statement for all their points (one commit), each post's checks (its trackable's
// owner, its device token, paused tracking, the privacy zones' version, resends) made per post inside it, each post
// answered with what the statement found for it. A lone post runs the one-post statement of lib/locations/locations.ts
// as before; a group whose statement fails is run again post by post with it (lib/db/group-commit.ts).

/** What a store statement found for a post: its trackable's tracking and its account's privacy zones' version. */
export interface Held {
  tracking: "active" | "paused";
  version: number;
}
/** A post found (null: its trackable is not the account's, or its device token no longer holds); for a device, the ids stored. */
export type ApiOutcome = (Held & { stored: null }) | null;
export type DeviceOutcome = (Held & { stored: Set<string> }) | null;

/** One post's store: its trackable's points (after the privacy zones) and the zones' version they were filtered with. */
export interface PostStore {
  ctx: Ctx;
  trackableId: string;
  values: LocationRow[];
  /** Receipt time and source, shared by the post's points. */
  shared: Pick<LocationRow, "receivedAt" | "source">;
  version: number;
  /** The evaluation job a post queues (or joins): its id, name and payload, as lib/locations/locations.ts writes it. */
  job: { id: string; name: string; payload: string; dedupeKey: string; concurrencyKey: string };
}
export type DevicePostStore = PostStore & { tokenId: string };

export const INSERT_LOCATIONS = "insert into locations (id, trackable_id, latitude, longitude, accuracy, altitude, speed, heading, battery, timestamp, received_at, source)";

// The group statements' parameters: one array per column, for the posts ($1–$9, and $21 the device tokens) and for all
// their points ($11–$20, each with its post's 1-based position), so the text is the same for any group and is prepared
// once per connection; $10 the evaluation workflow's name.
const POSTS = `select * from unnest($1::uuid[], $2::uuid[], $3::int4[], $4::uuid[], $5::text[], $6::text[], $7::text[],
        $8::text[]::timestamptz[], $9::text[]) with ordinality
        as q(trackable_id, account_id, version, job_id, payload, dedupe_key, concurrency_key, received_at, source, post)`;
const POINTS = `unnest($11::int4[], $12::uuid[], $13::float8[], $14::float8[], $15::float8[], $16::float8[], $17::float8[],
        $18::float8[], $19::float8[], $20::text[]::timestamptz[])
        as p(post, id, latitude, longitude, accuracy, altitude, speed, heading, battery, timestamp)`;
// One job per trackable with points stored (two posts of a trackable in one group queue one run), in trackable order:
// two groups running at once join queued runs in the same order, so they cannot deadlock on them.
const queueJobs = (hasPoints: string) => `insert into jobs (id, name, payload, dedupe_key, concurrency_key)
      select distinct on (q.trackable_id) q.job_id, $10::text, q.payload::jsonb, q.dedupe_key, q.concurrency_key
      from posts q where ${hasPoints}
      order by q.trackable_id
      ${JOIN_QUEUED_RUN}`;

/**
 * API posts: each post's trackable is checked to be its account's and locked FOR KEY SHARE (as the one-post
 * statement does); the points of the posts whose trackable is active and whose zones' version still holds are stored;
 * what was found is answered per post (a post missing from the answer: not the account's trackable).
 */
const API_GROUP_INSERT = `with posts as (${POSTS}
    ), owner as (
      select q.post, q.trackable_id, t.tracking, a.privacy_version,
        t.tracking = 'active' and a.privacy_version = q.version as storing
      from posts q join trackables t on t.id = q.trackable_id and t.account_id = q.account_id
      join accounts a on a.id = t.account_id
      for key share of t
    ), points as (
      select p.*, o.trackable_id from ${POINTS} join owner o on o.post = p.post and o.storing
    ), stored as (
      ${INSERT_LOCATIONS}
      select p.id, p.trackable_id, p.latitude, p.longitude, p.accuracy, p.altitude, p.speed, p.heading, p.battery, p.timestamp,
        q.received_at, q.source
      from points p join posts q on q.post = p.post
    ), queued as (
      ${queueJobs("exists (select 1 from points p where p.post = q.post)")}
    )
    select post::int4, tracking, privacy_version as version from owner`;

/**
 * Device posts: each post's token and trackable are locked FOR KEY SHARE together (a revoked token or a deleted
 * trackable: the post is missing from the answer), and its points that are not exact resends are stored: the probe of
 * the trackable's index for stored ones, and the unique index on device points (ON CONFLICT DO NOTHING) for the same
 * point posted twice at once — in this group (the first post of it stores the point) or in another statement. Points
 * are inserted in the unique index's order, so two groups storing the same points cannot deadlock on them.
 */
const DEVICE_GROUP_INSERT = `with posts as (${POSTS.replace("$9::text[])", "$9::text[], $21::uuid[])").replace("source, post)", "source, token_id, post)")}
    ), held as (
      select q.post, q.trackable_id, t.tracking, a.privacy_version,
        t.tracking = 'active' and a.privacy_version = q.version as storing
      from posts q join device_tokens d on d.id = q.token_id
      join trackables t on t.id = d.trackable_id and t.id = q.trackable_id and t.account_id = q.account_id
      join accounts a on a.id = t.account_id
      for key share of d, t
    ), stored as (
      ${INSERT_LOCATIONS}
      select p.id, h.trackable_id, p.latitude, p.longitude, p.accuracy, p.altitude, p.speed, p.heading, p.battery, p.timestamp,
        q.received_at, q.source
      from ${POINTS} join held h on h.post = p.post and h.storing join posts q on q.post = p.post
      where (
        select true from locations l
        where l.trackable_id = h.trackable_id and l.timestamp = p.timestamp and l.latitude = p.latitude and l.longitude = p.longitude
        limit 1) is null
      order by h.trackable_id, p.timestamp, p.latitude, p.longitude
      on conflict (trackable_id, timestamp, latitude, longitude) where source <> 'api' do nothing
      returning id, trackable_id
    ), queued as (
      ${queueJobs("exists (select 1 from stored s where s.trackable_id = q.trackable_id)")}
    )
    select post::int4, tracking, privacy_version as version, null::text as id from held
    union all
    select null, null, null, id::text from stored`;

/** $1–$20 of a group statement. */
function groupParams(posts: readonly PostStore[]): unknown[] {
  const column = <T>(pick: (p: PostStore) => T) => posts.map(pick);
  const points = posts.flatMap((p, i) => p.values.map((v) => [i + 1, v] as const));
  const pointColumn = (pick: (v: LocationRow) => unknown) => points.map(([, v]) => pick(v));
  return [
    column((p) => p.trackableId),
    column((p) => p.ctx.account.id),
    column((p) => p.version),
    column((p) => p.job.id),
    column((p) => p.job.payload),
    column((p) => p.job.dedupeKey),
    column((p) => p.job.concurrencyKey),
    column((p) => p.shared.receivedAt.toISOString()),
    column((p) => p.shared.source),
    posts[0]!.job.name,
    points.map(([post]) => post),
    pointColumn((v) => v.id),
    pointColumn((v) => v.latitude),
    pointColumn((v) => v.longitude),
    pointColumn((v) => v.accuracy),
    pointColumn((v) => v.altitude),
    pointColumn((v) => v.speed),
    pointColumn((v) => v.heading),
    pointColumn((v) => v.battery),
    pointColumn((v) => v.timestamp.toISOString()),
  ];
}

type HeldRow = { post: number; tracking: Held["tracking"]; version: number };

/** Stores the API posts with one statement; what it found for each, in the posts' order. */
export async function storeApiGroup(db: Db, posts: readonly PostStore[]): Promise<ApiOutcome[]> {
  const rows = await queryRows<HeldRow>(db, API_GROUP_INSERT, groupParams(posts));
  const byPost = new Map(rows.map((r) => [r.post, r]));
  return posts.map((_, i) => {
    const row = byPost.get(i + 1);
    return row ? { tracking: row.tracking, version: row.version, stored: null } : null;
  });
}

/** Stores the device posts with one statement; what it found for each and the ids of its points stored, in the posts' order. */
export async function storeDeviceGroup(db: Db, posts: readonly DevicePostStore[]): Promise<DeviceOutcome[]> {
  const rows = await queryRows<{ post: number | null; tracking: Held["tracking"] | null; version: number | null; id: string | null }>(db, DEVICE_GROUP_INSERT, [
    ...groupParams(posts),
    posts.map((p) => p.tokenId),
  ]);
  const byPost = new Map<number, Held>();
  const stored = new Set<string>();
  for (const r of rows) {
    if (r.id !== null) stored.add(r.id);
    else if (r.post !== null && r.tracking !== null && r.version !== null) byPost.set(r.post, { tracking: r.tracking, version: r.version });
  }
  return posts.map((p, i) => {
    const held = byPost.get(i + 1);
    if (!held) return null;
    return { ...held, stored: new Set(p.values.flatMap((v) => (stored.has(v.id) ? [v.id] : []))) };
  });
}

/** Points a group takes at most (the posts that arrive meanwhile wait for the next group). */
const GROUP_MAX_POINTS = 5000;

interface Committers {
  api: GroupCommit<PostStore, ApiOutcome>;
  device: GroupCommit<DevicePostStore, DeviceOutcome>;
}
const committers = new WeakMap<Db, Committers>();

/**
 * The process's group committers for `db`: posts of one kind gather while a group's statement runs. With Postgres two
 * groups run at once (one gathers its statement's parameters and parses while the other is in the database); the
 * embedded database runs one statement at a time, so one.
 */
export function groupCommitters(
  db: Db,
  single: { api(post: PostStore): Promise<ApiOutcome>; device(post: DevicePostStore): Promise<DeviceOutcome> },
): Committers {
  let found = committers.get(db);
  if (!found) {
    const maxInFlight = env().DATABASE_URL ? 2 : 1;
    const weight = (p: PostStore) => Math.max(1, p.values.length);
    const onGroupError = (err: unknown, size: number) => log.warn(`[locations] a group of ${size} posts failed; storing them one by one:`, err);
    found = {
      api: new GroupCommit<PostStore, ApiOutcome>({ group: (posts) => storeApiGroup(db, posts), single: single.api, maxInFlight, maxWeight: GROUP_MAX_POINTS, weight, onGroupError }),
      device: new GroupCommit<DevicePostStore, DeviceOutcome>({ group: (posts) => storeDeviceGroup(db, posts), single: single.device, maxInFlight, maxWeight: GROUP_MAX_POINTS, weight, onGroupError }),
    };
    committers.set(db, found);
  }
  return found;
}
