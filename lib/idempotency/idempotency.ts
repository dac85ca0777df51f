import { createHash } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { idempotencyKeys } from "@/lib/db/schema";
import { readBodyBytes, type RequestLike } from "@/lib/http/body";
import { ApiError } from "@/lib/http/errors";

export const IDEMPOTENCY_HEADER = "idempotency-key";
/** How long a key's first response is replayed. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;
// A claim older than this belongs to a request whose server died before it answered: a retry may take it over.
const STALE_CLAIM_MS = 5 * 60 * 1000;
// The response headers a replay repeats (the rate-limit headers are the replay's own).
const KEPT_HEADERS = ["content-type", "location", "cache-control"];
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key of a request, checked: 1–255 visible ASCII characters (400 otherwise), or null without one. */
export function idempotencyKeyOf(req: Pick<Request, "headers">): string | null {
  const key = req.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return null;
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError("invalid_request", "Invalid header Idempotency-Key: 1 to 255 visible ASCII characters, e.g. a UUID");
  }
  return key;
}

const requestHash = (method: string, url: string, body: Uint8Array): string =>
  createHash("sha256").update(`${method} ${new URL(url).pathname}\n`).update(body).digest("hex");

/**
 * Runs a POST at most once per (account, Idempotency-Key) within 24 hours, across every server: the key is claimed by
 * inserting its row (the primary key decides between concurrent requests), the request runs, and its response is
 * stored. A later request with the key replays that response (`Idempotent-Replayed: true`) when its method, path and
 * body are the same, is refused with 422 `idempotency_key_reused` when they are not, and with 409 `conflict` while
 * the first still runs. A 5xx is not kept: the key is released, so the request can be tried again.
 */
export async function withIdempotencyKey<R extends RequestLike>(
  db: Db,
  accountId: string,
  key: string,
  req: R,
  run: (req: R) => Promise<Response>,
): Promise<Response> {
  const body = await readBodyBytes(req);
  const hash = requestHash(req.method, req.url, body);
  const replay = await claim(db, accountId, key, hash);
  if (replay) return replay.response();
  let res: Response;
  try {
    // The body was read to hash it: the handler gets a request with the same bytes.
    res = await run(new Request(req.url, { method: req.method, headers: req.headers, body: new Uint8Array(body) }) as unknown as R);
  } catch (err) {
    await release(db, accountId, key);
    throw err;
  }
  if (res.status >= 500) {
    await release(db, accountId, key);
    return res;
  }
  const text = await res.clone().text();
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = res.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  await db
    .update(idempotencyKeys)
    .set({ responseStatus: res.status, responseHeaders: headers, responseBody: text })
    .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key)));
  return res;
}

/** Claims the key for this request (null), or says how it ends instead: the first response's Replay, or 409 or 422. */
async function claim(db: Db, accountId: string, key: string, hash: string): Promise<Replay | null> {
  for (let tries = 0; tries < 3; tries++) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ accountId, key, requestHash: hash })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length > 0) return null;

    // Taken: a key past its 24 hours, or a claim whose server died, is taken over (by one request: the update's
    // condition is re-checked under the row's lock).
    const now = Date.now();
    const takenOver = await db
      .update(idempotencyKeys)
      .set({ requestHash: hash, responseStatus: null, responseHeaders: null, responseBody: null, claimedAt: sql`now()`, createdAt: sql`now()` })
      .where(
        and(
          eq(idempotencyKeys.accountId, accountId),
          eq(idempotencyKeys.key, key),
          sql`(${idempotencyKeys.createdAt} < ${new Date(now - KEY_TTL_MS).toISOString()}::timestamptz or (${idempotencyKeys.responseStatus} is null and ${idempotencyKeys.claimedAt} < ${new Date(now - STALE_CLAIM_MS).toISOString()}::timestamptz))`,
        ),
      )
      .returning({ key: idempotencyKeys.key });
    if (takenOver.length > 0) return null;

    const [row] = await db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key)));
    // Released (the first request failed) between the insert and this read: try to claim it again.
    if (!row) continue;
    if (row.requestHash !== hash) {
      throw new ApiError(
        "idempotency_key_reused",
        "Idempotency-Key was already used with another request (a different method, path or body): use a new key for a new request",
      );
    }
    if (row.responseStatus === null) {
      throw new ApiError("conflict", "A request with this Idempotency-Key is still being processed: retry once it has completed");
    }
    return new Replay(row.responseStatus, row.responseHeaders ?? {}, row.responseBody ?? "");
  }
  throw new ApiError("conflict", "A request with this Idempotency-Key is still being processed: retry once it has completed");
}

async function release(db: Db, accountId: string, key: string): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key)));
}

/** The stored first response of a key, to be sent again. */
class Replay {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: string,
  ) {}

  response(): Response {
    return new Response(this.status === 204 ? null : this.body, { status: this.status, headers: { ...this.headers, "Idempotent-Replayed": "true" } });
  }
}

/** Deletes the keys past their 24 hours (the periodic purge); returns how many went. */
export async function purgeExpiredIdempotencyKeys(db: Db, now = Date.now()): Promise<number> {
  const gone = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now - KEY_TTL_MS))).returning({ key: idempotencyKeys.key });
  return gone.length;
}
