import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "@/lib/auth/users";
import type { Db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { openUnitDb } from "@/tests/support/unit-db";
import { verifyApiKey } from "./keys";
import { ProvisionInput, provisionApiKey } from "./provision";

// apikey:create --email: the key belongs to the workspace the dashboard user signs in to, the one the README's first
// commands and the dashboard must share.
let db: Db;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ db, close } = await openUnitDb("provision"));
}, 120_000);
afterAll(async () => close?.());

describe("provisionApiKey by email", () => {
  it("creates the key in the dashboard user's workspace (the address matched case-insensitively), and moves its plan", async () => {
    const email = `owner-${Date.now().toString(36)}@example.com`;
    const user = await signUp(db, { email, password: "correct horse battery staple", name: "Owner" });
    const input = ProvisionInput.parse({ email: email.toUpperCase(), plan: "free", name: "backend" });
    const { key, accountId, plan } = await provisionApiKey(db, input);
    expect(accountId).toBe(user.accountId);
    expect(plan).toBe("free");
    expect((await verifyApiKey(db, key))?.account).toEqual({ id: user.accountId, plan: "free" });
  });

  it("refuses an address no one signs in with, and creates no account", async () => {
    const err = await provisionApiKey(db, ProvisionInput.parse({ email: "nobody@example.com" })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("not_found");
    expect((err as ApiError).message).toMatch(/sign-up first/);
  });

  it("takes exactly one of --account and --email", () => {
    expect(ProvisionInput.safeParse({}).success).toBe(false);
    expect(ProvisionInput.safeParse({ account: "acme", email: "a@example.com" }).success).toBe(false);
    expect(ProvisionInput.safeParse({ account: "acme" }).success).toBe(true);
    expect(ProvisionInput.safeParse({ email: "not-an-email" }).success).toBe(false);
  });
});
