import dns from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { addressProblem, checkWebhookUrl } from "./url-policy";

export const RESPONSE_BODY_LIMIT = 4096;

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: http and private/loopback targets allowed. */
  allowPrivate: boolean;
  /** DNS resolution (injectable for tests: this machine has no DNS to point at private addresses). */
  resolve?: (hostname: string) => Promise<Array<{ address: string; family: number }>>;
}

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  /** The first 4096 bytes of the response body. */
  responseBody: string | null;
  error: string | null;
  durationMs: number;
  /** True when the target was refused before any connection was made. */
  refused: boolean;
  /** The receiver's Retry-After header, as sent (read on 429 and 503). */
  retryAfter: string | null;
}

const defaultResolve = (hostname: string) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * Connections to receivers are kept open between deliveries (one TCP connect, and for https one TLS handshake, per
 * connection instead of per delivery). An idle connection is closed after 4 s, or a second before the receiver's own
 * `Keep-Alive: timeout=` says it will close it (Node's agent reads that hint). A pooled connection was made to an
 * address checked when it was opened, for the same host and port; every delivery still checks what the host resolves
 * to now before it is sent at all.
 */
const KEEP_ALIVE = { keepAlive: true, timeout: 4_000 };
const agents = { "http:": new http.Agent(KEEP_ALIVE), "https:": new https.Agent(KEEP_ALIVE) };

/** How a request fails on a kept-open connection the receiver closed while it was idle (before any answer). */
const closedUnderneath = (err: NodeJS.ErrnoException) => err.code === "ECONNRESET" || err.code === "EPIPE" || err.message === "socket hang up";

const ABORTED = Symbol("aborted");

/** The promise's value, or ABORTED as soon as the signal fires (the promise itself runs on). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

/**
 * POSTs one webhook. Unless private targets are allowed, the URL must pass the save-time rules and every address the
 * host resolves to must pass the same addressProblem rule as a saved IP literal; the connection then goes to the address that was checked (the socket's lookup is
 * pinned to it), so a DNS answer that changes between the check and the connection (rebinding) cannot redirect it.
 * Redirects are not followed (3xx is a failure); the whole exchange, DNS look-up included, is bounded by timeoutMs.
 */
export async function sendWebhook(req: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, "durationMs" | "ok" | "refused" | "retryAfter"> & { refused?: boolean; retryAfter?: string | null }): SendResult => ({
    ...r,
    ok: r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300,
    refused: r.refused ?? false,
    retryAfter: r.retryAfter ?? null,
    durationMs: Math.round(performance.now() - started),
  });
  const refuse = (error: string) => done({ statusCode: null, responseBody: null, error: `Refused: ${error}`, refused: true });

  const policy = checkWebhookUrl(req.url, { allowPrivate: req.allowPrivate });
  if (policy) return refuse(policy);
  const url = new URL(req.url);
  const hostname = url.hostname.replace(/^\[|\]$/g, "");

  // One deadline for the whole exchange: the DNS look-up, the connection and the response.
  const signal = AbortSignal.timeout(req.timeoutMs);
  const timedOut = (during: string) => done({ statusCode: null, responseBody: null, error: `Timed out after ${req.timeoutMs} ms (${during})` });

  let target: { address: string; family: number };
  if (net.isIP(hostname)) {
    target = { address: hostname, family: net.isIP(hostname) };
  } else {
    let addresses: Array<{ address: string; family: number }>;
    try {
      // getaddrinfo cannot be cancelled: a look-up past the deadline finishes in the background, unused.
      const answer = await untilAborted((req.resolve ?? defaultResolve)(hostname), signal);
      if (answer === ABORTED) return timedOut(`DNS lookup of ${hostname}`);
      addresses = answer;
    } catch (err) {
      return done({ statusCode: null, responseBody: null, error: `DNS lookup of ${hostname} failed: ${(err as NodeJS.ErrnoException).code ?? String(err)}` });
    }
    if (addresses.length === 0) return done({ statusCode: null, responseBody: null, error: `DNS lookup of ${hostname} returned no address` });
    if (!req.allowPrivate) {
      for (const a of addresses) {
        const problem = addressProblem(a.address);
        if (problem) return refuse(`${hostname} resolves to ${a.address}, which is not a public address (${problem})`);
      }
    }
    target = addresses[0]!;
  }
  const problem = req.allowPrivate ? null : addressProblem(target.address);
  if (problem) return refuse(`${target.address} is not a public address (${problem})`);

  if (signal.aborted) return timedOut(`DNS lookup of ${hostname}`);
  const transport = url.protocol === "https:" ? https : http;
  // pooled: false makes a connection of its own (the retry after a kept-open connection turned out to be closed).
  let stale = false;
  const exchange = (pooled: boolean) =>
    new Promise<SendResult>((resolve, reject) => {
      const request = transport.request(
        url,
        {
          method: "POST",
          headers: { ...req.headers, "Content-Length": String(Buffer.byteLength(req.body)) },
          signal,
          agent: pooled ? agents[url.protocol as keyof typeof agents] : false,
          // Pinned: connect to the address checked above, whatever DNS says now. TLS still verifies the hostname.
          lookup: (_host, options, callback) => {
            if ((options as { all?: boolean }).all) callback(null, [{ address: target.address, family: target.family }]);
            else (callback as (e: Error | null, a: string, f: number) => void)(null, target.address, target.family);
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const finish = () =>
            resolve(
              done({
                statusCode: res.statusCode ?? null,
                retryAfter: typeof res.headers["retry-after"] === "string" ? res.headers["retry-after"] : null,
                responseBody: Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString("utf8"),
                error:
                  res.statusCode && res.statusCode >= 300 && res.statusCode < 400
                    ? `Redirect (${res.statusCode}${res.headers.location ? ` to ${res.headers.location}` : ""}) not followed`
                    : res.statusCode && (res.statusCode < 200 || res.statusCode >= 300)
                      ? `HTTP ${res.statusCode}`
                      : null,
              }),
            );
          res.on("data", (chunk: Buffer) => {
            if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk);
            size += chunk.length;
            // Enough of the body: stop reading (the receiver's status is already known).
            if (size >= RESPONSE_BODY_LIMIT) {
              res.destroy();
              finish();
            }
          });
          res.on("end", finish);
          res.on("error", (err) => (size >= RESPONSE_BODY_LIMIT ? finish() : reject(err)));
        },
      );
      request.on("error", (err: NodeJS.ErrnoException) => {
        stale = request.reusedSocket && closedUnderneath(err);
        reject(err);
      });
      request.end(req.body);
    });
  try {
    try {
      return await exchange(true);
    } catch (err) {
      // Sent again, once, on a new connection: a kept-open connection the receiver had closed, so the request did not
      // reach it (and should it have, receivers de-duplicate on webhook-id).
      if (signal.aborted || !stale) throw err;
      return await exchange(false);
    }
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const message =
      signal.aborted || e.name === "AbortError" || e.name === "TimeoutError"
        ? `Timed out after ${req.timeoutMs} ms`
        : `${e.code ? `${e.code}: ` : ""}${e.message}`;
    return done({ statusCode: null, responseBody: null, error: message });
  }
}
