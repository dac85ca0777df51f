import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";

/** Stream tokens start with this (API keys with "fl_"): a route told one of these knows it is not a key. */
export const STREAM_TOKEN_PREFIX = "flst_";

const Claims = z.object({ k: z.uuid(), e: z.number().int() });

const sign = (secret: string, body: string) => createHmac("sha256", `${secret}:stream-token`).update(body).digest("base64url");

/**
 * A stream token for an API key: "flst_" + base64url({k: key id, e: expiry in s}) + "." + its HMAC. Nothing is stored:
 * the stream checks the signature and the expiry, then that the key is still unrevoked.
 */
export function createStreamToken(secret: string, keyId: string, expiresIn: number, now = Date.now()): { token: string; expiresAt: Date } {
  const expiresAt = new Date(Math.floor(now / 1000) * 1000 + expiresIn * 1000);
  const body = Buffer.from(JSON.stringify({ k: keyId, e: expiresAt.getTime() / 1000 })).toString("base64url");
  return { token: `${STREAM_TOKEN_PREFIX}${body}.${sign(secret, body)}`, expiresAt };
}

/** The key id a valid, unexpired token was made for; null for anything else. */
export function verifyStreamToken(secret: string, token: string, now = Date.now()): string | null {
  if (!token.startsWith(STREAM_TOKEN_PREFIX) || token.length > 512) return null;
  const [body, mac, extra] = token.slice(STREAM_TOKEN_PREFIX.length).split(".");
  if (!body || !mac || extra !== undefined) return null;
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claims = Claims.safeParse(JSON.parse(Buffer.from(body, "base64url").toString("utf8")));
    if (!claims.success || claims.data.e * 1000 <= now) return null;
    return claims.data.k;
  } catch {
    return null;
  }
}
