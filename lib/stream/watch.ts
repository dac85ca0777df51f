// Which accounts have an open live stream that wants location.updated: on this server (its subscribers) or on
// another server of a scale-out (as that server announced, until the announcement expires). Producers build the unrecorded location.updated events only
// for these accounts. Kept on globalThis: the app server's bundle and Next.js's each load this module.

export interface WatchState {
  /** Open streams of this server that want location.updated, by account. */
  local: Map<string, number>;
  /** Accounts with such a stream on another server, until the time (ms) their announcement expires. */
  remote: Map<string, number>;
}

const shared = globalThis as unknown as { __fencelineStreamWatch?: WatchState };
export const watchState = (): WatchState => (shared.__fencelineStreamWatch ??= { local: new Map(), remote: new Map() });

/** Whether some open stream, here or on another server, may want the account's live events. */
export function isWatched(accountId: string, now = Date.now()): boolean {
  const state = watchState();
  if ((state.local.get(accountId) ?? 0) > 0) return true;
  const until = state.remote.get(accountId);
  return until !== undefined && until > now;
}
