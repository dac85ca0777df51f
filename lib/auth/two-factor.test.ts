import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openUnitDb } from "@/tests/support/unit-db";
import type { Db } from "@/lib/db/client";
import {
  beginTwoFactor,
  disableTwoFactor,
  enableTwoFactor,
  enrolment,
  hashRecoveryCode,
  matchTotp,
  newRecoveryCodes,
  newTotpSecret,
  RECOVERY_CODE_COUNT,
  TOTP_PERIOD_S,
  totpCode,
  verifySecondFactor,
} from "./two-factor";
import { signUp } from "./users";

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890" in base32; at T = 59 s the 8-digit code is 94287082.
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const STEP_MS = TOTP_PERIOD_S * 1000;

describe("TOTP codes (RFC 6238)", () => {
  it("matches the RFC's test vectors (6-digit truncation)", () => {
    expect(totpCode(RFC_SECRET, 59_000)).toBe("287082");
    expect(totpCode(RFC_SECRET, 1_111_111_109_000)).toBe("081804");
    expect(totpCode(RFC_SECRET, 2_000_000_000_000)).toBe("279037");
  });

  it("accepts the current step and one either side, nothing further, and never a replay", () => {
    fc.assert(
      fc.property(fc.integer({ min: 10, max: 2_000_000_000 }), fc.integer({ min: -3, max: 3 }), (stepNo, offset) => {
        const now = stepNo * STEP_MS + 1;
        const code = totpCode(RFC_SECRET, now + offset * STEP_MS);
        const step = matchTotp(RFC_SECRET, code, null, now);
        if (Math.abs(offset) <= 1) {
          expect(step).toBe(stepNo + offset);
          expect(matchTotp(RFC_SECRET, code, step, now)).toBeNull();
        } else if (step !== null) {
          // a code of another step can equal one inside the window by chance (1 in 10^6)
          expect(Math.abs(step - stepNo)).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it("refuses what is not six digits", () => {
    for (const code of ["", "12345", "1234567", "abcdef", "12 34 5"]) expect(matchTotp(RFC_SECRET, code, null, 59_000)).toBeNull();
    expect(matchTotp(RFC_SECRET, "287 082", null, 59_000)).toBe(1);
  });

  it("a new secret is 160 bits of base32, and its otpauth URL and QR code name the user", async () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const e = await enrolment(secret, "ada@example.com");
    expect(e.url).toMatch(/^otpauth:\/\/totp\/Fenceline:ada%40example\.com\?/);
    expect(e.url).toContain(`secret=${secret}`);
    expect(e.qr).toMatch(/^data:image\/png;base64,/);
  });
});

describe("recovery codes", () => {
  it("ten distinct codes; the hash ignores case, spaces and dashes", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const c of codes) {
      expect(c).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
      expect(hashRecoveryCode(c.toUpperCase().replace(/-/g, " "))).toBe(hashRecoveryCode(c));
    }
  });
});

describe("enabling, verifying and disabling", () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await openUnitDb("two-factor"));
  }, 120_000);
  afterAll(async () => close?.());

  const newUser = () => signUp(db, { email: `tf+${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`, password: "0123456789" });

  it("enables only with a valid code, stores recovery codes hashed, and each code works once", async () => {
    const user = await newUser();
    const secret = (await beginTwoFactor(db, user.id))!;
    const now = Date.now();
    expect(await enableTwoFactor(db, user.id, "000000", now)).toBeNull();
    const codes = (await enableTwoFactor(db, user.id, totpCode(secret, now), now))!;
    expect(codes).toHaveLength(10);
    // already on: setup cannot restart, and the secret stays
    expect(await beginTwoFactor(db, user.id)).toBeNull();

    // the code that enabled it cannot sign in (replay); the next step's can, once
    expect(await verifySecondFactor(db, user.id, totpCode(secret, now), now)).toBe(false);
    const later = now + STEP_MS;
    expect(await verifySecondFactor(db, user.id, totpCode(secret, later), later)).toBe(true);
    expect(await verifySecondFactor(db, user.id, totpCode(secret, later), later)).toBe(false);

    // a recovery code works once; the others still work
    expect(await verifySecondFactor(db, user.id, codes[3]!)).toBe(true);
    expect(await verifySecondFactor(db, user.id, codes[3]!)).toBe(false);
    expect(await verifySecondFactor(db, user.id, codes[4]!.toUpperCase())).toBe(true);
    expect(await verifySecondFactor(db, user.id, "aaaa-bbbb-cccc")).toBe(false);

    // two concurrent uses of one recovery code: exactly one succeeds
    const raced = await Promise.all([verifySecondFactor(db, user.id, codes[5]!), verifySecondFactor(db, user.id, codes[5]!)]);
    expect(raced.filter(Boolean)).toHaveLength(1);

    // disabling needs a valid code
    expect(await disableTwoFactor(db, user.id, "123456")).toBe(false);
    expect(await disableTwoFactor(db, user.id, codes[0]!)).toBe(true);
    expect(await verifySecondFactor(db, user.id, codes[1]!)).toBe(false);
  });
});
