import { openUnitDb } from "@/tests/support/unit-db";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteAccounts } from "@/lib/accounts/accounts";
import type { Ctx } from "@/lib/context";
import type { Db } from "@/lib/db/client";
import { accounts, shareLinks, trackables } from "@/lib/db/schema";
import { ApiError } from "@/lib/http/errors";
import {
  createShareLink,
  findSharedTrackable,
  hashShareToken,
  listShareLinks,
  revokeShareLink,
  viewSharedTrackable,
} from "./share-links";

// The expiry path through the real verbs and a real database (embedded PGlite in a temp DATA_DIR, or a scratch
// database on DATABASE_URL's Postgres): the verbs take `now`, so a link created "two minutes ago" with the minimum
// lifetime is already expired, without a clock mock or a wait.
let db: Db;
let close: (() => Promise<void>) | undefined;
let ctx: Ctx;
let trackableId: string;

const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);

beforeAll(async () => {
  ({ db, close } = await openUnitDb("share_links"));
  const [account] = await db
    .insert(accounts)
    .values({ slug: `share-${randomBytes(6).toString("hex")}`, name: "share", plan: "free" })
    .returning({ id: accounts.id });
  ctx = { account: { id: account!.id, plan: "free" }, db };
  const [t] = await db.insert(trackables).values({ accountId: account!.id, name: "Van 12", type: "vehicle" }).returning({ id: trackables.id });
  trackableId = t!.id;
}, 120_000);

afterAll(async () => {
  if (db && ctx) await deleteAccounts(db, [ctx.account.id]);
  await close?.();
}, 60_000);

describe("share link expiry", () => {
  it("a link works until its expiresAt and not from that instant on", async () => {
    const created = new Date();
    const link = await createShareLink({ ctx, input: { trackableId, expiresIn: 60 }, now: created });
    const token = tokenOf(link.url);
    const expiresAt = new Date(link.expiresAt);
    expect(expiresAt.getTime() - created.getTime()).toBe(60_000);

    expect(await findSharedTrackable({ db, token, now: new Date(expiresAt.getTime() - 1) })).toMatchObject({
      trackable: { name: "Van 12", type: "vehicle" },
      location: null,
      expiresAt: link.expiresAt,
    });
    expect(await findSharedTrackable({ db, token, now: expiresAt })).toBeNull();
    expect(await findSharedTrackable({ db, token, now: new Date(expiresAt.getTime() + 3600_000) })).toBeNull();
  });

  it("a link created two minutes ago with a 60 s lifetime is expired now (real clock)", async () => {
    const link = await createShareLink({ ctx, input: { trackableId, expiresIn: 60 }, now: secondsAgo(120) });
    expect(Date.parse(link.expiresAt)).toBeLessThan(Date.now());
    const token = tokenOf(link.url);
    expect(await findSharedTrackable({ db, token })).toBeNull();
    await expect(viewSharedTrackable({ db, token })).rejects.toMatchObject({ code: "not_found", status: 404 });
    // The same message as an unknown token: nothing tells an expired link from one that never existed.
    const unknown = await viewSharedTrackable({ db, token: "A".repeat(43) }).catch((e: ApiError) => e.message);
    const expired = await viewSharedTrackable({ db, token }).catch((e: ApiError) => e.message);
    expect(expired).toBe(unknown);
  });

  it("an expired link is listed as inactive and can still be revoked, once", async () => {
    const expired = await createShareLink({ ctx, input: { trackableId, expiresIn: 60 }, now: secondsAgo(120) });
    const live = await createShareLink({ ctx, input: { trackableId, expiresIn: 3600 } });
    const active = await listShareLinks({ ctx, query: { limit: 100, trackableId, active: true } });
    expect(active.data.map((l) => l.id)).toContain(live.id);
    expect(active.data.map((l) => l.id)).not.toContain(expired.id);
    const inactive = await listShareLinks({ ctx, query: { limit: 100, trackableId, active: false } });
    expect(inactive.data.map((l) => l.id)).toContain(expired.id);

    await revokeShareLink({ ctx, id: expired.id });
    await expect(revokeShareLink({ ctx, id: expired.id })).rejects.toMatchObject({ code: "conflict", status: 409 });
  });

  it("stores only what it must: the token for the dashboard and its SHA-256 for the look-up", async () => {
    const link = await createShareLink({ ctx, input: { trackableId } });
    const [row] = await db.select().from(shareLinks).where(eq(shareLinks.id, link.id));
    expect(row!.tokenHash).toBe(hashShareToken(tokenOf(link.url)));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(link.expiresAt) - Date.parse(link.createdAt)).toBe(86_400_000);
  });
});
