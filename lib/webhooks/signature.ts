import { createHmac, timingSafeEqual } from "node:crypto";

/** X-Service-Signature: hex HMAC-SHA256 of the raw request body, keyed by the webhook secret. */
export function signPayload(body: string, secret: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("hex");
}

/** What a receiver does (and the README shows): recompute over the raw body, compare in constant time. */
export function verifySignature(body: string, secret: string, signature: string): boolean {
  const expected = Buffer.from(signPayload(body, secret), "hex");
  const given = Buffer.from(signature, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
