import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "@/lib/context";
import { accounts, notificationRules } from "@/lib/db/schema";
import { openUnitDb } from "@/tests/support/unit-db";
import { createChannel, deleteChannel, updateChannel } from "./notification-channels";
import { CreateNotificationRuleInput } from "./rule-schemas";
import { accountRules, bumpNotificationsVersion } from "./rule-cache";
import { createRule, deleteRule, updateRule } from "./rules";

// The rules matching holds in memory (rule-cache.ts), on a real database: kept while the account's version stands,
// reloaded by any process once a verb (on whichever server) has bumped it in the transaction of its change.
let unit: Awaited<ReturnType<typeof openUnitDb>>;
let ctx: Ctx;

beforeAll(async () => {
  unit = await openUnitDb("rule-cache");
  ctx = await unit.account();
});
afterAll(() => unit?.close());

const version = async () => (await ctx.db.select({ v: accounts.notificationsVersion }).from(accounts).where(eq(accounts.id, ctx.account.id)))[0]!.v;
const channel = (name: string) => createChannel({ ctx, input: { name, type: "slack", config: { webhookUrl: `https://hooks.slack.com/services/T0/B0/${name}` }, enabled: true } });
const rule = (name: string, channelIds: string[]) =>
  createRule({ ctx, input: CreateNotificationRuleInput.parse({ name, eventTypes: ["geofence.entry"], channelIds }) });

describe("accountRules", () => {
  it("serves the same rules from memory while the version stands, even when a row changed behind the verbs' back", async () => {
    const c = await channel("first");
    const r = await rule("kept", [c.id]);
    const loaded = await accountRules(ctx.db, ctx.account.id);
    expect(loaded.rules.map((x) => x.id)).toEqual([r.id]);
    expect([...loaded.channels]).toEqual([c.id]);
    // A write that does not bump the version is not seen: the rules come from memory, not from a query.
    await ctx.db.update(notificationRules).set({ name: "renamed without a bump" }).where(eq(notificationRules.id, r.id));
    const again = await accountRules(ctx.db, ctx.account.id);
    expect(again).toBe(loaded);
    expect(again.rules[0]!.name).toBe("kept");
    // Another server's change arrives as a bumped version in the database: this process reloads on its next read.
    await bumpNotificationsVersion(ctx.db, ctx.account.id);
    const reloaded = await accountRules(ctx.db, ctx.account.id);
    expect(reloaded).not.toBe(loaded);
    expect(reloaded.rules[0]!.name).toBe("renamed without a bump");
    await deleteRule({ ctx, id: r.id });
    await deleteChannel({ ctx, id: c.id });
  });

  it("every change to a rule or a channel through the verbs bumps the version and is seen by the next read", async () => {
    const seen = async () => {
      const { rules, channels, version: v } = await accountRules(ctx.db, ctx.account.id);
      expect(v).toBe(await version());
      return { rules: rules.map((x) => x.name), channels: [...channels].sort() };
    };
    const before = await version();
    const a = await channel("a");
    const b = await channel("b");
    expect(await seen()).toEqual({ rules: [], channels: [a.id, b.id].sort() });
    const r1 = await rule("r1", [a.id, b.id]);
    const r2 = await rule("r2", [b.id]);
    expect((await seen()).rules).toEqual(["r1", "r2"]);
    await updateRule({ ctx, id: r1.id, input: { enabled: false } });
    expect((await seen()).rules).toEqual(["r2"]);
    await updateChannel({ ctx, id: a.id, input: { enabled: false } });
    expect((await seen()).channels).toEqual([b.id]);
    await deleteChannel({ ctx, id: b.id });
    const { rules } = await accountRules(ctx.db, ctx.account.id);
    expect(rules.map((x) => [x.name, x.channelIds])).toEqual([["r2", []]]);
    await deleteRule({ ctx, id: r2.id });
    expect(await seen()).toEqual({ rules: [], channels: [] });
    // Two channels made, two rules made, one rule and one channel changed, one channel and one rule deleted.
    expect((await version()) - before).toBe(8);
  });

  it("takes a version the caller read in its transaction as it is, without reading it again", async () => {
    const held = await accountRules(ctx.db, ctx.account.id);
    // The database's version moves on; a caller that read the older one (an evaluation round, before the bump) gets
    // what is held under it, and one that read the newer one gets it loaded.
    await bumpNotificationsVersion(ctx.db, ctx.account.id);
    expect(await accountRules(ctx.db, ctx.account.id, held.version)).toBe(held);
    const newer = await accountRules(ctx.db, ctx.account.id, await version());
    expect(newer).not.toBe(held);
    expect(newer.version).toBe(held.version + 1);
  });

  it("a change rolled back leaves the version, and what the cache holds, as they were", async () => {
    const held = await accountRules(ctx.db, ctx.account.id);
    const v = await version();
    const c = (await accountRules(ctx.db, ctx.account.id)).channels;
    expect(c.size).toBe(0);
    const kept = await channel("kept");
    const held2 = await accountRules(ctx.db, ctx.account.id);
    expect(held2).not.toBe(held);
    await expect(
      ctx.db.transaction(async (tx) => {
        await createRule({ ctx: { ...ctx, tx }, input: CreateNotificationRuleInput.parse({ name: "never", eventTypes: ["geofence.exit"], channelIds: [kept.id] }) });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await version()).toBe(v + 1);
    expect(await accountRules(ctx.db, ctx.account.id)).toBe(held2);
  });
});
