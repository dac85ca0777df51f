import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import {
  generateWebhookSecret,
  isBase64WebhookSecret,
  signPayload,
  standardSignature,
  standardSignatureHeader,
  standardWebhooksKey,
  verifySignature,
} from "./signature";

describe("X-Service-Signature", () => {
  it("matches a fixed vector (RFC 4231 test case 2: key Jefe)", () => {
    expect(signPayload("what do ya want for nothing?", "Jefe")).toBe("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  });

  it("is the hex HMAC-SHA256 of the raw UTF-8 body", () => {
    const body = '{"event":"geofence.entry","occurred_at":"2026-11-22T07:33:55.123Z","name":"Zürich ✓"}';
    expect(signPayload(body, "whsec_1")).toBe(createHmac("sha256", "whsec_1").update(Buffer.from(body, "utf8")).digest("hex"));
  });

  it("verification accepts the signature and rejects any change, in constant time", () => {
    const body = '{"a":1}';
    const sig = signPayload(body, "secret-123");
    expect(verifySignature(body, "secret-123", sig)).toBe(true);
    expect(verifySignature('{"a":2}', "secret-123", sig)).toBe(false);
    expect(verifySignature(body, "secret-124", sig)).toBe(false);
    expect(verifySignature(body, "secret-123", sig.slice(0, -2))).toBe(false);
    expect(verifySignature(body, "secret-123", "not hex")).toBe(false);
  });
});

describe("webhook-signature (Standard Webhooks)", () => {
  it("matches the Standard Webhooks reference vector", () => {
    // The vector of the Standard Webhooks reference libraries' tests.
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    expect(standardSignature("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}', secret)).toBe(
      "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    );
  });

  it("keys by the base64-decoded part of a whsec_ secret, by the UTF-8 bytes of any other", () => {
    const body = '{"a":"Zürich"}';
    const b64 = generateWebhookSecret();
    expect(standardWebhooksKey(b64)).toEqual(Buffer.from(b64.slice(6), "base64"));
    const raw = `v1,${createHmac("sha256", Buffer.from("mein-geheimnis-ß", "utf8")).update(`id.1.${body}`).digest("base64")}`;
    expect(standardSignature("id", 1, body, "mein-geheimnis-ß")).toBe(raw);
    // whsec_ followed by something that is not base64 cannot be a library's default key: it is a raw key as a whole.
    expect(standardWebhooksKey("whsec_test_0123456789")).toEqual(Buffer.from("whsec_test_0123456789", "utf8"));
  });

  it("is verified by the standardwebhooks library: default options for whsec_, the raw option otherwise", () => {
    const body = '{"event":"location.updated"}';
    const now = Math.floor(Date.now() / 1000);
    const whsec = generateWebhookSecret();
    const rawSecret = "a-plain-secret-123";
    const headers = (secrets: string[]) => ({
      "webhook-id": "d-1",
      "webhook-timestamp": String(now),
      "webhook-signature": standardSignatureHeader("d-1", now, body, secrets),
    });
    expect(new Webhook(whsec).verify(body, headers([whsec]))).toEqual({ event: "location.updated" });
    expect(new Webhook(rawSecret, { format: "raw" }).verify(body, headers([rawSecret]))).toEqual({ event: "location.updated" });
    // Two signatures (a rotation's overlap): a receiver holding either secret verifies; a third secret does not.
    const both = headers([whsec, rawSecret]);
    expect(both["webhook-signature"].split(" ")).toHaveLength(2);
    expect(() => new Webhook(whsec).verify(body, both)).not.toThrow();
    expect(() => new Webhook(rawSecret, { format: "raw" }).verify(body, both)).not.toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, both)).toThrow();
    expect(() => new Webhook(whsec).verify(body.replace("location", "battery"), both)).toThrow();
  });

  it("generated secrets are whsec_ + base64 of 32 random bytes", () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), "base64")).toHaveLength(32);
    expect(isBase64WebhookSecret(a)).toBe(true);
    expect(generateWebhookSecret()).not.toBe(a);
  });
});
