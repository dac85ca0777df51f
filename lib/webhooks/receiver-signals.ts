/** The longest a receiver's Retry-After may push a retry back. */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/**
 * A 429 or 503's Retry-After (RFC 9110: delay-seconds or an HTTP-date) as milliseconds from `now`, capped at one
 * hour; null when there is none or it cannot be read. A date in the past is 0.
 */
export function retryAfterMs(statusCode: number | null, header: string | null, now = Date.now()): number | null {
  if ((statusCode !== 429 && statusCode !== 503) || !header) return null;
  const value = header.trim();
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at) || !/[a-z]/i.test(value)) return null;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

/** The wait before the next attempt: the schedule's, or longer when the receiver asked for longer. */
export function retryDelayMs(scheduledMs: number, statusCode: number | null, retryAfterHeader: string | null, now = Date.now()): number {
  const asked = retryAfterMs(statusCode, retryAfterHeader, now);
  return asked === null ? scheduledMs : Math.max(scheduledMs, asked);
}

/** 410 Gone: the receiver says the endpoint no longer exists; the delivery ends at once. */
export const isGone = (statusCode: number | null) => statusCode === 410;
