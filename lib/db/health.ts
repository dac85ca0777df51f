import { sql } from "drizzle-orm";
import { nextAnswer, sinceLastAnswer } from "./answers";
import { getDb } from "./client";

/**
 * An answer to one of the app's statements this recent (ms) counts as the database answering now: more than one
 * second, as a loaded server's event loop can take that long to read an answer the database already sent.
 */
export const RECENT_ANSWER_MS = 2_000;
/** How long the check waits for an answer before it calls the database unavailable (ms). */
export const PING_TIMEOUT_MS = 3_000;

let refreshing = false;

/** A `select 1` nobody waits for, so that a check asked often keeps the last answer recent even when the app is idle. */
function refresh(): void {
  if (refreshing) return;
  refreshing = true;
  void getDb()
    .then((db) => db.execute(sql`select 1`))
    .catch(() => {})
    .finally(() => (refreshing = false));
}

/**
 * Resolves when the database answers; rejects with the driver's error, or after PING_TIMEOUT_MS without an answer.
 * A statement of the app's answered within RECENT_ANSWER_MS counts, and so does the next one answered after the
 * check began: its own `select 1` would otherwise queue behind the app's statements (a burst of large writes holds
 * the embedded database's one connection, or every connection of the pool, for as long as they take). So an
 * open database that stops answering is reported within RECENT_ANSWER_MS + PING_TIMEOUT_MS.
 */
export async function pingDatabase(): Promise<void> {
  const since = sinceLastAnswer();
  if (since < RECENT_ANSWER_MS) {
    if (since > RECENT_ANSWER_MS / 2) refresh();
    return;
  }
  // Opening it (at start: the embedded database's first start makes its data directory) is waited for, as before:
  // the server is starting, not losing its database; a failure to open or connect is reported at once.
  const db = await getDb();
  const next = nextAnswer();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
  });
  const own = db.execute(sql`select 1`).then(() => {});
  // A failure of the check's own query that another statement's answer beat is not reported.
  own.catch(() => {});
  try {
    await Promise.race([own, next.answered, timeout]);
  } finally {
    clearTimeout(timer);
    next.cancel();
  }
}
