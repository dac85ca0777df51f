import { getTableColumns } from "drizzle-orm";
import { unnestedInsert } from "@/lib/db/bulk";
import type { Tx } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { epochMs as ms, queryRows } from "@/lib/db/rows";
import { speedEpisodes as speedEpisodesTable, trips as tripsTable } from "@/lib/db/schema";
import type { ProducedEvent } from "@/lib/events/produced";
import { beaconOf, locationOf } from "@/lib/events/payloads";
import { accountFences, appliesTo, candidatesFromCache, type AccountFences } from "@/lib/geofences/fence-cache";
import { containsPoint } from "@/lib/geofences/shapes";
import type { MotionReads, Owner } from "@/lib/geofences/round-state";
import type { Cursor } from "@/lib/geofences/evaluation";
import { speedExceededPayload, tripPayload } from "./payloads";
import { compareFixes, DEFAULT_MOTION_ACCURACY, motionSettings, Segmenter, usableFixes, type Fix, type MotionSettingsInput, type TripSegment } from "./segment";
import { serializeTrip } from "./serialize";
import { lowerLimit, SpeedTracker, type SpeedEpisode, type SpeedState } from "./speed";
import { decodeMotionState, encodeMotionState, type MotionState, type OpenTrip, type StoredMotionState } from "./state";

// Motion's part of an evaluation round, in the round's transaction and under its locks on the trackables: takes each
// trackable's rows of motion_inbox (added, committed with them, by every statement that stores locations: see
// lib/db/schema/motion.ts), which say that fixes came and the earliest time among them, and resumes segmentation from
// where the last round left it (trackable_states.motion_state: the open trip's measures and recent track), so a round
// reads the fixes since then and not the whole open trip. A fix older than that point, or changed settings, make the
// round recompute from the last stop before its earliest new fix instead (segment.ts resumes from a stop exactly).
// Either way the stored trips and stops from the resume point on are replaced, and trip.started, trip.ended and
// speed.exceeded go out once each: a trip that a recompute keeps keeps its id and its sent flags, and an episode its key.

const NEVER = -62135596800000;

// Takes the trackables' inbox rows: one row per trackable that has some, with its motion settings and state, the
// earliest time the rows announce and the trackable's newest fix id now (the index's last entry). Rows committed after
// this statement wait for the next round, and so do fixes above that id.
const NEW_FIXES = `with taken as (
    delete from motion_inbox where trackable_id = any($1::uuid[]) returning trackable_id, earliest
  ), fresh as (
    select trackable_id, min(earliest) as earliest from taken group by trackable_id
  )
  select f.trackable_id as "trackableId", t.motion, s.motion_state as "state", ${ms("f.earliest")} as "earliestMs",
    (select l.id from locations l where l.trackable_id = f.trackable_id order by l.id desc limit 1) as newest
  from fresh f
  join trackables t on t.id = f.trackable_id
  join trackable_states s on s.trackable_id = f.trackable_id`;

// Each window, one row per trackable: the fixes from its start and the trips and speed episodes stored from there (what
// the round replaces). A window resumed from the stored state gives its bounds; any other starts at the last stop
// confirmed before the earliest new fix by a run of fixes (none: from the first fix). A stop that began at its
// confirming fix (after a gap, or at the first fix) is no such point: a fix arriving in the gap would have carried
// the trip on, so its state depends on fixes after it. Fixes above NEW_FIXES's newest id wait for the
// round that takes their own inbox row (one committed between the two statements, with an id below it, is read now
// and announced again: the next round finds it older than its state and recomputes, which changes nothing).
const WINDOWS = `select v.id as "trackableId", ${ms("s.started_at")} as "stopStartedMs", s.latitude, s.longitude, ${ms("s.anchor_at")} as "anchorMs",
    (select json_agg(json_build_array(l.id, l.latitude, l.longitude, l.accuracy, l.speed, ${ms("l.timestamp")}) order by l.timestamp, l.id)
      from locations l where l.trackable_id = v.id and l.id <= v.newest and l.timestamp >= coalesce(v.fixes_from, s.anchor_at, '-infinity'::timestamptz)) as fixes,
    (select json_agg(json_build_array(p.id, ${ms("p.started_at")}, ${ms("coalesce(p.ended_at, p.last_fix_at)")}, p.started_sent, p.ended_sent) order by p.started_at)
      from trips p where p.trackable_id = v.id and p.started_at >= coalesce(v.trips_from, s.anchor_at, '-infinity'::timestamptz)) as trips,
    (select json_agg(${ms("e.started_at")})
      from speed_episodes e where e.trackable_id = v.id and e.started_at >= coalesce(v.episodes_from, s.anchor_at, '-infinity'::timestamptz)) as episodes
  from unnest($1::uuid[], $2::text[]::timestamptz[], $3::text[]::timestamptz[], $4::text[]::timestamptz[], $5::text[]::timestamptz[], $6::uuid[])
    as v(id, earliest, fixes_from, trips_from, episodes_from, newest)
  left join lateral (
    select started_at, latitude, longitude, anchor_at from stops
    where v.fixes_from is null and trackable_id = v.id and anchor_at < v.earliest and started_at < anchor_at
    order by anchor_at desc limit 1) s on true`;

type NewFixesRow = { trackableId: string; motion: MotionSettingsInput | null; state: unknown; earliestMs: number; newest: string | null };
type WindowRow = {
  trackableId: string;
  stopStartedMs: number | null;
  latitude: number | null;
  longitude: number | null;
  anchorMs: number | null;
  fixes: Array<[id: string, latitude: number, longitude: number, accuracy: number | null, speed: number | null, timestampMs: number]> | null;
  trips: Array<[id: string, startedMs: number, endMs: number, startedSent: boolean, endedSent: boolean]> | null;
  episodes: number[] | null;
};

/** What motion adds to a round: its events per trackable, each trackable's trips (to tag the round's other events), and its writes. */
export interface MotionRound {
  events: Map<string, ProducedEvent[]>;
  /** The trip containing a moment, of the trips this round computed for the trackable. */
  tripAt(trackableId: string, at: Date): string | null;
  writes: Promise<unknown>[];
  /**
   * In an evaluation round (`pre` given), the trackables' new motion states by id in their stored form (null clears
   * one), for the round to save with its own state update (saveStates); otherwise empty, the writes saving them.
   */
  states: Map<string, StoredMotionState | null>;
  /** How many stored fixes the round read to segment (the windows' rows): what a round costs. */
  read: number;
  /** How many of them came from the evaluation round's own read (see motionRound) instead of the window's. */
  handed: number;
}

/**
 * Internal, not a setting: FENCELINE_BENCH_NO_MOTION=1 leaves motion out of every round (no trips, stops or speed
 * episodes), so bench/throughput.ts can weigh what motion costs ingest against a server without it.
 */
const MOTION_OFF = process.env.FENCELINE_BENCH_NO_MOTION === "1";

/** The trackable's accuracy limit for motion: the strictest maxAccuracy of the geofences that apply to it, else 100 m. */
function accuracyLimit(af: AccountFences, trackableId: string): number {
  let limit: number | null = null;
  af.fences.forEach((f, i) => {
    if (f.maxAccuracy !== null && appliesTo(af, i, trackableId) && (limit === null || f.maxAccuracy < limit)) limit = f.maxAccuracy;
  });
  return limit ?? DEFAULT_MOTION_ACCURACY;
}

/** The geofences (that apply to the trackable) containing each point. */
function containing(af: AccountFences, trackableId: string, points: readonly { latitude: number; longitude: number }[]): string[][] {
  if (af.fences.length === 0 || points.length === 0) return points.map(() => []);
  return candidatesFromCache(af, trackableId, points).map((list, i) => list.filter((f) => containsPoint(f, points[i]!)).map((f) => f.id));
}

/** How one trackable's window is read: resumed from its stored state, or from the last stop before its new fixes. */
interface Plan {
  owner: Owner;
  af: AccountFences;
  settings: ReturnType<typeof motionSettings>;
  accuracy: number;
  basis: string;
  /** The stored state when every new fix comes at or after its point and the settings are the same. */
  resume: MotionState | null;
  /**
   * The stored state when the earliest new fix shares its newest fix's time (and the settings are the same): resumed
   * once the window's read shows that no new fix sorts before one it took in (MotionState.tie), else recomputed.
   */
  tie: MotionState | null;
  /** The round's own read of the trackable's points holds every new fix (see motionRound): the window reads none. */
  handed: Fix[] | null;
}

/**
 * Motion for the round's trackables (see the module comment). Takes their inbox rows (NEW_FIXES; or, in an evaluation
 * round, `pre.reads`: the round's own read took them in the snapshot of its points) and reads with one more statement
 * (WINDOWS) when some trackable with new fixes needs its window read; the writes are issued, not awaited: the round
 * awaits them with its own. A resumed trackable whose points the round read all of, from a cursor before the state's
 * point, takes its fixes from those points (every stored fix at or after that point is among them) and the rest of
 * its window from its state (knownWindow): nothing is read for it.
 */
export async function motionRound(
  tx: Tx,
  trackables: readonly Owner[],
  pre?: { reads: ReadonlyMap<string, MotionReads>; cursors: ReadonlyMap<string, Cursor | null> },
): Promise<MotionRound> {
  const events = new Map<string, ProducedEvent[]>();
  const tripsOf = new Map<string, { id: string; from: number; to: number }[]>();
  const round: MotionRound = {
    events,
    writes: [],
    states: new Map(),
    read: 0,
    handed: 0,
    tripAt(trackableId, at) {
      const t = at.getTime();
      // From just after its start (the stop's last fix belongs to the stop) to its end.
      return tripsOf.get(trackableId)?.find((p) => t > p.from && t <= p.to)?.id ?? null;
    },
  };
  if (trackables.length === 0 || MOTION_OFF) return round;
  const fresh: (Omit<NewFixesRow, "state"> & { state: MotionState | null; newest: string; reads?: MotionReads })[] = pre
    ? trackables.flatMap((t) => {
        const r = pre.reads.get(t.id);
        return r ? [{ trackableId: t.id, motion: r.motion, state: r.state, earliestMs: r.earliestMs, newest: r.newest, reads: r }] : [];
      })
    : // A trackable whose announced fixes are all gone (deleted since) has nothing to take in.
      (await queryRows<NewFixesRow>(tx, NEW_FIXES, [trackables.map((t) => t.id)])).flatMap((r) => (r.newest === null ? [] : [{ ...r, newest: r.newest, state: decodeMotionState(r.state) }]));
  if (fresh.length === 0) return round;
  const byId = new Map(trackables.map((t) => [t.id, t]));
  const plans = new Map<string, Plan>();
  /** Trackables whose fixes from a time on wait for the next round (see handedOver): announced again by WRITE. */
  const announce: [trackableId: string, from: string][] = [];
  for (const row of fresh) {
    const owner = byId.get(row.trackableId)!;
    const settings = motionSettings(row.motion);
    const af = await accountFences(tx, owner.accountId, owner.geofencesVersion);
    const accuracy = accuracyLimit(af, owner.id);
    const basis = JSON.stringify([settings, accuracy]);
    const same = row.state !== null && row.state.basis === basis ? row.state : null;
    const resume = same && row.earliestMs >= same.at ? same : null;
    const tie = same && !resume && row.earliestMs === same.at - 1 ? same : null;
    const { handed, rest } = handedOver(resume, row.reads, pre?.cursors.get(row.trackableId) ?? null);
    if (rest !== null) announce.push([row.trackableId, iso(rest)]);
    plans.set(row.trackableId, { owner, af, settings, accuracy, basis, resume, tie, handed });
  }
  /** A bound of each resumed (or tied) window (null for the others: they start at the stop the query finds). */
  const bound = (rows: readonly { trackableId: string }[], pick: (s: MotionState) => number) =>
    rows.map((r) => {
      const { resume, tie } = plans.get(r.trackableId)!;
      const s = resume ?? tie;
      return s ? iso(pick(s)) : null;
    });
  const readWindows = (rows: readonly { trackableId: string; earliestMs: number; newest: string }[]) =>
    rows.length === 0
      ? Promise.resolve([])
      : queryRows<WindowRow>(tx, WINDOWS, [
          rows.map((r) => r.trackableId),
          rows.map((r) => iso(r.earliestMs)),
          // A tied window reads the fixes at its state's newest time too: the check needs those taken in.
          rows.map((r) => {
            const { resume, tie } = plans.get(r.trackableId)!;
            return resume ? iso(resume.at) : tie ? iso(tie.at - 1) : null;
          }),
          bound(rows, tripsFrom),
          bound(rows, (s) => Math.min(s.at, s.speed.startedAt ?? s.at)),
          rows.map((r) => r.newest),
        ]);
  // A resumed window with its fixes handed over needs nothing read: its state holds the trip and episode it replaces.
  const knownFrom = (r: { trackableId: string }) => {
    const { resume, handed } = plans.get(r.trackableId)!;
    return resume && handed ? resume : null;
  };
  const known = fresh.flatMap((r) => {
    const resume = knownFrom(r);
    return resume ? [knownWindow(r.trackableId, resume)] : [];
  });
  const unknown = fresh.filter((r) => !knownFrom(r));
  const read = await readWindows(unknown);
  // A tied window resumes when exactly the fixes its state took in sort at or before its last one; otherwise a new fix
  // goes before one taken in (committed late), and the window is read again from the last stop.
  const untied = new Set<string>();
  for (const w of read) {
    const plan = plans.get(w.trackableId)!;
    if (!plan.tie) continue;
    const tie = plan.tie;
    const taken = (w.fixes ?? []).reduce((n, [id, latitude, longitude, , , time]) => n + (takenIn(tie, { id, latitude, longitude, time }) ? 1 : 0), 0);
    if (taken === tie.tie.count) plan.resume = tie;
    else untied.add(w.trackableId);
    plan.tie = null;
  }
  const reread = await readWindows(unknown.filter((r) => untied.has(r.trackableId)));
  const windows = [...known, ...read.filter((w) => !untied.has(w.trackableId)), ...reread];

  const tripRows: (typeof tripsTable.$inferInsert)[] = [];
  const stopRows: unknown[][] = [];
  const episodeRows: (typeof speedEpisodesTable.$inferInsert)[] = [];
  const deleteTrips: [string, string][] = [];
  const deleteStops: [string, string][] = [];
  const states = new Map<string, MotionState | null>();
  for (const w of windows) {
    const { owner: t, af, settings, accuracy, basis, resume, handed } = plans.get(w.trackableId)!;
    // Every fix read, and the new ones among them (a tied window read the ones its state took in too).
    const all: Fix[] = handed ?? (w.fixes ?? []).map(([id, latitude, longitude, accuracy, speed, timeMs]) => ({ id, latitude, longitude, accuracy, speed, time: timeMs }));
    const raw = resume ? all.filter((f) => !takenIn(resume, f)) : all;
    const fixes = usableFixes(raw, accuracy);
    round.read += all.length;
    if (handed) round.handed += all.length;
    if (fixes.length === 0) {
      // Nothing usable: a resumed state stands as it was, after these fixes too.
      if (resume && all.length > 0) states.set(t.id, { ...resume, ...pointAfter(all) });
      continue;
    }

    // Segmentation and the speed rule from the stored state, or from the window's first fix (a stored stop's
    // confirming fix, or the trackable's first fix).
    let seg: Segmenter;
    let speedFrom: SpeedState | null = null;
    let skip = 0;
    if (resume) {
      seg = new Segmenter(settings, resume.open);
      speedFrom = resume.speed;
      deleteTrips.push([t.id, iso(tripsFrom(resume))]);
      deleteStops.push([t.id, iso(resume.open.kind === "stop" ? resume.open.anchorAt : resume.at)]);
    } else {
      const first = fixes[0]!;
      seg = new Segmenter(
        settings,
        w.anchorMs === null ? null : { kind: "stop", startedAt: w.stopStartedMs!, anchor: { latitude: w.latitude!, longitude: w.longitude! }, anchorAt: first.time, last: first },
      );
      skip = w.anchorMs === null ? 0 : 1;
      deleteTrips.push([t.id, iso(w.anchorMs ?? NEVER)]);
      deleteStops.push([t.id, iso(w.anchorMs ?? NEVER)]);
    }
    const limited = settings.speedLimit !== null || af.speedLimits.size > 0;
    const inside = limited && af.speedLimits.size > 0 ? containing(af, t.id, fixes) : null;
    const speed = new SpeedTracker(settings.speedMinDuration, speedFrom);

    // The state saved for the next round stands after every fix of the window.
    const found: SpeedEpisode[] = [];
    fixes.forEach((f, i) => {
      if (i >= skip) seg.push(f);
      const applied = limited ? lowerLimit(settings.speedLimit, (inside?.[i] ?? []).map((id) => ({ id, speedLimit: af.speedLimits.get(id) ?? null }))) : null;
      const e = speed.push(f, applied);
      if (e) found.push(e);
    });
    const open = seg.state();
    const { trips, stops } = seg.finish();

    // Trips the recompute keeps (overlapping a stored one, in order) keep its id and what was sent for it.
    const stored = (w.trips ?? []).map(([id, from, to, startedSent, endedSent]) => ({ id, from, to, startedSent, endedSent, used: false }));
    const beacon = beaconOf(t);
    const list: ProducedEvent[] = [];
    const kept: { id: string; from: number; to: number }[] = [];
    let openTrip: OpenTrip | null = null;
    for (const trip of trips) {
      const to = trip.endedAt ?? trip.lastFixTime;
      const match = stored.find((s) => !s.used && s.from <= to && trip.startedAt <= s.to);
      if (match) match.used = true;
      const id = match?.id ?? newId();
      let startedSent = match?.startedSent ?? false;
      let endedSent = match?.endedSent ?? false;
      // The trip as its events carry it, built only for an event that goes out (most rounds send none).
      let body: ReturnType<typeof serializeTrip> | undefined;
      const bodyOf = () => (body ??= serializeTrip(tripRecord(id, t, trip)));
      if (!startedSent) {
        startedSent = true;
        const at = new Date(trip.startedAt);
        list.push({ type: "trip.started", trackableId: t.id, occurredAt: at, tripId: id, location: point(trip.start, at), payload: tripPayload("trip.started", beacon, at.toISOString(), bodyOf()) });
      }
      if (trip.status === "completed" && !endedSent) {
        endedSent = true;
        const at = new Date(trip.endedAt!);
        list.push({ type: "trip.ended", trackableId: t.id, occurredAt: at, tripId: id, location: point(trip.end!, at), payload: tripPayload("trip.ended", beacon, at.toISOString(), bodyOf()) });
      }
      kept.push({ id, from: trip.startedAt, to });
      tripRows.push(tripRow(id, t, trip, startedSent, endedSent));
      if (trip.status === "ongoing") openTrip = { id, startedSent, endedSent };
    }
    tripsOf.set(t.id, kept);
    states.set(t.id, open === null ? null : { ...pointAfter(all), basis, open, speed: speed.state(), trip: open.kind === "trip" ? openTrip : null });

    const fences = containing(af, t.id, stops);
    stops.forEach((s, i) =>
      stopRows.push([newId(), t.accountId, t.id, iso(s.startedAt), s.endedAt === null ? null : iso(s.endedAt), s.latitude, s.longitude, s.duration, iso(s.anchorAt), `{${fences[i]!.join(",")}}`]),
    );

    const sent = new Set(w.episodes ?? []);
    for (const e of found) {
      if (sent.has(e.startedAt)) continue;
      const at = new Date(e.fix.time);
      const location = locationOf({ ...e.fix, timestamp: at });
      episodeRows.push({ trackableId: t.id, startedAt: new Date(e.startedAt) });
      list.push({
        type: "speed.exceeded",
        trackableId: t.id,
        geofenceId: e.geofenceId,
        occurredAt: at,
        location,
        tripId: round.tripAt(t.id, at),
        payload: speedExceededPayload(beacon, location, { value: e.value, limit: e.limit, geofenceId: e.geofenceId }),
      });
    }
    list.sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
    events.set(t.id, list);
  }

  // Every value travels as text and is cast in SQL (as lib/db/bulk does): one statement text for any row count.
  const text = (rows: readonly unknown[][], i: number) => rows.map((r) => (r[i] === null ? null : String(r[i])));
  const stored = new Map([...states].map(([id, state]) => [id, state === null ? null : encodeMotionState(state)]));
  if (pre) round.states = stored;
  const saves = pre ? "{}" : JSON.stringify(Object.fromEntries(stored));
  round.writes.push(
    queryRows(tx, WRITE, [
      deleteTrips.map((d) => d[0]),
      deleteTrips.map((d) => d[1]),
      deleteStops.map((d) => d[1]),
      saves,
      ...TRIPS.params(tripRows),
      ...STOP_COLUMNS.map((_, i) => text(stopRows, i)),
      ...EPISODES.params(episodeRows),
      announce.map((a) => a[0]),
      announce.map((a) => a[1]),
    ]),
  );
  // Awaited by the round with its other writes; handled here too, so a failure is not unhandled meanwhile.
  for (const w of round.writes) w.catch(() => undefined);
  return round;
}

/**
 * The new fixes of a resumed trackable that the evaluation round's read holds (null: none, the window reads them).
 * Every point after the round's cursor is in the read when it is complete, or, when the read stopped at its limit,
 * every point before the time of its last one: then the round takes those and announces the rest again (`rest`, the
 * time to resume from), as the evaluation leaves the rest for its next round. Either way only when the cursor lies
 * before the state's point, so that nothing at or after that point was left before the cursor.
 */
function handedOver(resume: MotionState | null, reads: MotionReads | undefined, cursor: Cursor | null): { handed: Fix[] | null; rest: number | null } {
  if (!resume || !reads || (cursor !== null && cursor.timestamp.getTime() >= resume.at)) return { handed: null, rest: null };
  if (reads.complete) return { handed: reads.fixes.filter((f) => f.time >= resume.at), rest: null };
  const edge = reads.fixes.at(-1)?.time;
  if (edge === undefined) return { handed: null, rest: null };
  const handed = reads.fixes.filter((f) => f.time >= resume.at && f.time < edge);
  return handed.length > 0 ? { handed, rest: edge } : { handed: null, rest: null };
}

/**
 * What WINDOWS would read for a resumed window whose fixes the round's read handed over, from its state: no fixes, the
 * open trip's row (the only stored trip from its start on; none after an open stop's confirming fix) and the current
 * speed episode when it fired (the only stored episode from its start on; none from `at` on).
 */
function knownWindow(trackableId: string, s: MotionState): WindowRow {
  const trips: NonNullable<WindowRow["trips"]> =
    s.open.kind === "trip" && s.trip ? [[s.trip.id, s.open.first.time, s.open.tail[s.open.tail.length - 1]!.fix.time, s.trip.startedSent, s.trip.endedSent]] : [];
  const episodes = s.speed.fired && s.speed.startedAt !== null ? [s.speed.startedAt] : [];
  return { trackableId, stopStartedMs: null, latitude: null, longitude: null, anchorMs: null, fixes: [], trips, episodes };
}

/** Where the stored trips a resumed window replaces begin: the open trip's start, or the open stop's confirming fix. */
const tripsFrom = (s: MotionState): number => (s.open.kind === "trip" ? s.open.first.time : s.open.anchorAt);

/**
 * Where a state stands after these fixes (every fix read at the newest time among them, so the count is all of them):
 * just after the newest time, and the last fix at that time in segmentation's order, with their number.
 */
function pointAfter(all: readonly Fix[]): Pick<MotionState, "at" | "tie"> {
  let newest = all[0]!;
  let count = 0;
  for (const f of all) {
    if (f.time > newest.time) {
      newest = f;
      count = 1;
    } else if (f.time === newest.time) {
      count += 1;
      if (compareFixes(f, newest) > 0) newest = f;
    }
  }
  return { at: newest.time + 1, tie: { latitude: newest.latitude, longitude: newest.longitude, id: newest.id, count } };
}

/** Whether a state took in this fix: one before its point, or at its newest time and at or before its last fix there. */
function takenIn(s: MotionState, f: Pick<Fix, "id" | "latitude" | "longitude" | "time">): boolean {
  if (f.time !== s.at - 1) return f.time < s.at;
  return compareFixes({ ...f, accuracy: null, speed: null }, { id: s.tie.id, latitude: s.tie.latitude, longitude: s.tie.longitude, time: f.time, accuracy: null, speed: null }) <= 0;
}

const iso = (msecs: number) => new Date(msecs).toISOString();
const point = (p: { latitude: number; longitude: number }, at: Date) => ({ latitude: p.latitude, longitude: p.longitude, accuracy: null, timestamp: at.toISOString() });

// The round's writes, in one statement: each window's stored trips and stops from its start are replaced by the
// computed ones, the changed states saved (one JSON object by trackable id; JSON null clears a state; an evaluation
// round passes none and saves them with its own state update), new speed episodes recorded, and the fixes the round
// left to the next announced again from the time of the first one (a statement of their own cost more than the rows).
// A trip the recompute keeps keeps its row (the upsert updates it, and the delete spares it); the others go. The
// parts touch different rows, so the order Postgres runs them in does not matter.
// Trips take every column but created_at, which the upsert keeps (the row's first write).
const FIRST_COLUMN = 5;
const TRIP_KEYS = (Object.keys(getTableColumns(tripsTable)) as (keyof typeof tripsTable.$inferInsert & string)[]).filter((k) => k !== "id" && k !== "createdAt");
// The id first: the delete spares the kept trips by the first array, and the upsert sets every other column.
const TRIPS = unnestedInsert(tripsTable, ["id", ...TRIP_KEYS], FIRST_COLUMN);
// geofence_ids (uuid[]) travels as its text form, as every column does: one text[] parameter cannot carry arrays.
const STOP_COLUMNS = [
  ["id", "uuid"],
  ["account_id", "uuid"],
  ["trackable_id", "uuid"],
  ["started_at", "timestamptz"],
  ["ended_at", "timestamptz"],
  ["latitude", "float8"],
  ["longitude", "float8"],
  ["duration", "float8"],
  ["anchor_at", "timestamptz"],
  ["geofence_ids", "text"],
] as const;
const STOPS_FROM = FIRST_COLUMN + TRIPS.names.length;
const EPISODES = unnestedInsert(speedEpisodesTable, ["trackableId", "startedAt"], STOPS_FROM + STOP_COLUMNS.length);
const ANNOUNCE_FROM = STOPS_FROM + STOP_COLUMNS.length + EPISODES.names.length;
const stopNames = STOP_COLUMNS.map(([c]) => c).join(", ");
const stopsSelect = `select ${STOP_COLUMNS.map(([c]) => (c === "geofence_ids" ? "geofence_ids::uuid[]" : c)).join(", ")} from unnest(${STOP_COLUMNS.map(
  ([, type], i) => `$${STOPS_FROM + i}::text[]::${type}[]`,
).join(", ")}) as v(${stopNames})`;
const WRITE = `with old_trips as (
    delete from trips p using unnest($1::uuid[], $2::text[]::timestamptz[]) as v(id, since)
    where p.trackable_id = v.id and p.started_at >= v.since and p.id <> all($${FIRST_COLUMN}::text[]::uuid[])
  ), new_trips as (
    insert into trips (${TRIPS.names.join(", ")}) ${TRIPS.select}
    on conflict (id) do update set ${TRIPS.names
      .slice(1)
      .map((c) => `${c} = excluded.${c}`)
      .join(", ")}
  ), old_stops as (
    delete from stops p using unnest($1::uuid[], $3::text[]::timestamptz[]) as v(id, since)
    where p.trackable_id = v.id and p.anchor_at >= v.since
  ), new_stops as (
    insert into stops (${stopNames}) ${stopsSelect}
  ), episodes as (
    insert into speed_episodes (${EPISODES.names.join(", ")}) ${EPISODES.select} on conflict do nothing
  ), announced as (
    insert into motion_inbox (trackable_id, earliest)
    select * from unnest($${ANNOUNCE_FROM}::uuid[], $${ANNOUNCE_FROM + 1}::text[]::timestamptz[])
  ), states as (
    update trackable_states s set motion_state = nullif(v.value, 'null'::jsonb)
    from jsonb_each($4::text::jsonb) as v where s.trackable_id = v.key::uuid
  )
  select 1`;

/** A computed trip as the stored row's fields that serializeTrip reads. */
export function tripRecord(id: string, t: Pick<Owner, "id">, trip: TripSegment) {
  return {
    id,
    trackableId: t.id,
    status: trip.status,
    startedAt: new Date(trip.startedAt),
    endedAt: trip.endedAt === null ? null : new Date(trip.endedAt),
    startLatitude: trip.start.latitude,
    startLongitude: trip.start.longitude,
    endLatitude: trip.end?.latitude ?? null,
    endLongitude: trip.end?.longitude ?? null,
    distance: trip.distance,
    duration: trip.duration,
    maxSpeed: trip.maxSpeed,
    pointCount: trip.pointCount,
  };
}

function tripRow(id: string, t: Pick<Owner, "id" | "accountId">, trip: TripSegment, startedSent: boolean, endedSent: boolean): typeof tripsTable.$inferInsert {
  return {
    ...tripRecord(id, t, trip),
    accountId: t.accountId,
    lastFixAt: new Date(trip.lastFixTime),
    startedSent,
    endedSent,
  };
}
