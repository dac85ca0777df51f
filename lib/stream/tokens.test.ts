import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createStreamToken, STREAM_TOKEN_PREFIX, verifyStreamToken } from "./tokens";

describe("stream tokens", () => {
  it("verify to their key until they expire, and not after", () => {
    fc.assert(
      fc.property(fc.uuid(), fc.integer({ min: 60, max: 3600 }), fc.integer({ min: 0, max: 2_000_000_000_000 }), (keyId, expiresIn, now) => {
        const { token, expiresAt } = createStreamToken("secret", keyId, expiresIn, now);
        expect(token.startsWith(STREAM_TOKEN_PREFIX)).toBe(true);
        expect(verifyStreamToken("secret", token, now)).toBe(keyId);
        expect(verifyStreamToken("secret", token, expiresAt.getTime() - 1)).toBe(keyId);
        expect(verifyStreamToken("secret", token, expiresAt.getTime())).toBeNull();
      }),
    );
  });

  it("any change to a token, or another secret, makes it worthless", () => {
    fc.assert(
      fc.property(fc.uuid(), fc.nat(), fc.integer({ min: 1, max: 127 }), (keyId, at, delta) => {
        const { token } = createStreamToken("secret", keyId, 300, 0);
        const i = at % token.length;
        const changed = token.slice(0, i) + String.fromCharCode(((token.charCodeAt(i) + delta) % 128) || 1) + token.slice(i + 1);
        if (changed === token) return;
        expect(verifyStreamToken("secret", changed, 0)).toBeNull();
        expect(verifyStreamToken("other", token, 0)).toBeNull();
      }),
    );
  });
});
