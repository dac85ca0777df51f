import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signPayload, verifySignature } from "./signature";

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
