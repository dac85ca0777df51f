import type { Tx } from "@/lib/db/client";
import type { FenceCandidate } from "./candidates";
import { evaluatePoints, type Cursor } from "./evaluation";
import { accountFences, candidatesFromCache, shapesFromCache, type AccountFences, type PreviousSecret } from "./fence-cache";
import { fenceStatesOf, saveFenceStates, type FenceStateChange, type FenceStateRows } from "./fence-state";
import type { Owner, Point } from "./round-state";


export type PointEvaluation = ReturnType<typeof evaluatePoints<Point>>;

/** The geofence side of a round: each trackable's points decided against its account's fences. */
export interface FenceRound {
  /** Statements already issued (the fence state reads that needed one); the round awaits them with its writes. */
  writes: Promise<unknown>[];
  evaluate(
    t: Owner,
    cursor: Cursor | null,
    points: Point[],
  ): {
    evaluation: PointEvaluation;
    /** The geofence of a transition (every one comes from the account's fence cache). */
    fenceOf: (geofenceId: string) => FenceCandidate;
    /** The geofence's webhook's previous secret, when a rotation left one. */
    previousSecretOf: (geofenceId: string) => PreviousSecret;
  };
  /** Issues the writes of the fence states the evaluations changed (memberships, pending crossings). */
  save(): Promise<unknown>[];
}

/**
 * Prepares the fence side of a round for these trackables: each account's geofences from memory (current by its
 * version; an account without any costs no query for them) and the trackables' fence states from the round's reads.
 */
export async function fenceRound(tx: Tx, trackables: readonly Owner[], fenceRows: FenceStateRows): Promise<FenceRound> {
  const fenceSets = new Map<string, AccountFences>();
  for (const t of trackables) {
    if (!fenceSets.has(t.accountId)) fenceSets.set(t.accountId, await accountFences(tx, t.accountId, t.geofencesVersion));
  }
  const fenced = trackables.filter((t) => fenceSets.get(t.accountId)!.fences.length > 0).map((t) => t.id);
  const accountOf = new Map(trackables.map((t) => [t.id, t.accountId]));
  const { states, writes } = fenceStatesOf(tx, fenced, fenceRows, (trackableId, ids) =>
    shapesFromCache(fenceSets.get(accountOf.get(trackableId)!)!, trackableId, ids),
  );
  const changes: FenceStateChange[] = [];
  return {
    writes,
    evaluate(t, cursor, points) {
      const fenceSet = fenceSets.get(t.accountId)!;
      const before = states.get(t.id) ?? { inside: new Set<string>(), memory: new Map(), shapes: new Map<string, FenceCandidate>() };
      const candidates = fenceSet.fences.length === 0 ? null : candidatesFromCache(fenceSet, t.id, points);
      const evaluation = evaluatePoints<Point>({
        cursor,
        inside: before.inside,
        memory: before.memory,
        points,
        // candidatesFromCache lists them by the point's position in `points`, which is what evaluatePoints passes.
        candidates: candidates ? (_, i) => candidates[i]! : () => [],
        shapes: before.shapes,
      });
      if (fenceSet.fences.length > 0) changes.push({ trackableId: t.id, before, after: evaluation, transitions: evaluation.transitions });
      return {
        evaluation,
        fenceOf: (id) => fenceSet.fences[fenceSet.position.get(id)!]!,
        previousSecretOf: (id) => fenceSet.previousSecrets.get(id) ?? null,
      };
    },
    save: () => saveFenceStates(tx, changes),
  };
}
