import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

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

const WHSEC = "whsec_";
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;

/** What the service generates (dashboard "Generate", rotation without a given secret): whsec_ + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return WHSEC + randomBytes(32).toString("base64");
}

/**
 * The HMAC key of webhook-signature: the base64-decoded part of a `whsec_<base64>` secret (what Standard Webhooks
 * libraries expect by default), the secret's UTF-8 bytes otherwise (their raw-key option). A `whsec_` secret whose
 * remainder is not strict base64 cannot be given to a library's default constructor, so it is a raw key as a whole.
 */
export function standardWebhooksKey(secret: string): Buffer {
  const rest = secret.startsWith(WHSEC) ? secret.slice(WHSEC.length) : null;
  if (rest !== null && BASE64.test(rest)) return Buffer.from(rest, "base64");
  return Buffer.from(secret, "utf8");
}

/** Whether a secret is verified by Standard Webhooks libraries with their default options (else: the raw-key option). */
export const isBase64WebhookSecret = (secret: string) => secret.startsWith(WHSEC) && BASE64.test(secret.slice(WHSEC.length));

/** One Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of "{id}.{timestamp}.{body}". */
export function standardSignature(id: string, timestamp: number, body: string, secret: string): string {
  return `v1,${createHmac("sha256", standardWebhooksKey(secret)).update(`${id}.${timestamp}.${body}`, "utf8").digest("base64")}`;
}

/**
 * The webhook-signature header: the current secret's signature, then (during a rotation's overlap) the previous
 * secret's, space-separated, so receivers holding either verify the request.
 */
export function standardSignatureHeader(id: string, timestamp: number, body: string, secrets: string[]): string {
  return secrets.map((s) => standardSignature(id, timestamp, body, s)).join(" ");
}
