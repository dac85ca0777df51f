import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "@/lib/context";
import { auditLog, memberships, users } from "@/lib/db/schema";
import { openUnitDb } from "@/tests/support/unit-db";
import { acceptInvitation, createInvitation, INVITATION_TTL_MS, listInvitations, lookUpInvitation } from "./invitations";

let unit: Awaited<ReturnType<typeof openUnitDb>>;
let ctx: Ctx;
let inviter: { id: string; email: string; name: string | null };

beforeAll(async () => {
  unit = await openUnitDb("invitations");
  ctx = await unit.account();
  const [row] = await unit.db.insert(users).values({ accountId: ctx.account.id, email: `owner-${Date.now()}@example.com`, name: "Ada" }).returning();
  await unit.db.insert(memberships).values({ accountId: ctx.account.id, userId: row!.id, role: "owner" });
  inviter = row!;
  ctx = { ...ctx, actor: { type: "user", id: row!.id, name: "Ada" } };
}, 120_000);
afterAll(() => unit?.close());

async function invitee(email: string) {
  const [other] = await unit.db.insert(users).values({ accountId: ctx.account.id, email }).returning();
  return other!;
}

describe("invitations", () => {
  it("store only the token's hash and work for 7 days, not a millisecond more", async () => {
    const now = new Date("2026-06-01T12:00:00.000Z");
    const email = `late-${Date.now()}@example.com`;
    const { link, invitation } = await createInvitation({ ctx, inviter, input: { email, role: "viewer" }, now });
    const token = link.slice(link.lastIndexOf("/") + 1);
    expect(invitation.expiresAt.getTime() - now.getTime()).toBe(INVITATION_TTL_MS);
    expect(JSON.stringify(await unit.db.select().from(auditLog).where(eq(auditLog.accountId, ctx.account.id)))).not.toContain(token);

    const user = await invitee(email);
    const expiry = new Date(now.getTime() + INVITATION_TTL_MS);
    expect((await lookUpInvitation(unit.db, token, expiry))!.status).toBe("expired");
    await expect(acceptInvitation(unit.db, token, user, { now: expiry })).rejects.toThrow(/expired/);
    expect((await lookUpInvitation(unit.db, token, new Date(expiry.getTime() - 1)))!.status).toBe("valid");
    await acceptInvitation(unit.db, token, user, { now: new Date(expiry.getTime() - 1) });
    const [joined] = await unit.db.select().from(memberships).where(eq(memberships.userId, user.id));
    expect(joined).toMatchObject({ accountId: ctx.account.id, role: "viewer" });
  });

  it("is spent once even when two acceptances race", async () => {
    const email = `race-${Date.now()}@example.com`;
    const { link } = await createInvitation({ ctx, inviter, input: { email, role: "member" } });
    const token = link.slice(link.lastIndexOf("/") + 1);
    const user = await invitee(email);
    const results = await Promise.allSettled([acceptInvitation(unit.db, token, user), acceptInvitation(unit.db, token, user)]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await listInvitations({ ctx })).not.toContainEqual(expect.objectContaining({ email }));
  });
});
