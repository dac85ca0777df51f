import { describe, expect, inject, it } from "vitest";
import { totpCode, TOTP_PERIOD_S } from "@/lib/auth/two-factor";
import { adminRequest } from "@/lib/http/admin-socket";
import { baseUrl, newAccount, request, type ApiResponse, type TestAccount } from "../harness/client";
import { postAction, signIn, signUpUser, uniqueEmail } from "../harness/dashboard";
import { securitySuite } from "../harness/security";

securitySuite("GET /audit-log", { method: "GET", path: () => "/audit-log" }, { tenancy: false });

interface Entry {
  id: string;
  occurredAt: string;
  actor: { type: "user" | "apiKey"; id: string; name: string };
  clientAddress: string | null;
  action: string;
  objectType: string;
  objectId: string;
  changes: Record<string, [unknown, unknown]>;
}

type Api = TestAccount["api"];

/** Every entry (oldest first), following the cursors; also the raw text of every page, for searching. */
async function auditLog(api: Api, query = ""): Promise<{ entries: Entry[]; text: string }> {
  const entries: Entry[] = [];
  let text = "";
  let cursor: string | null = null;
  do {
    const res: ApiResponse = await api("GET", `/audit-log?limit=100${query}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(res.status, res.text).toBe(200);
    entries.push(...(res.body.data as Entry[]));
    text += res.text;
    cursor = res.body.nextCursor;
  } while (cursor);
  return { entries: entries.reverse(), text };
}

const ok = async <T = any>(p: Promise<{ status: number; body: T; text: string }>, status = 200): Promise<T> => {
  const res = await p;
  expect(res.status, res.text).toBe(status);
  return res.body;
};

describe("audit log through the API", () => {
  it("records each change once, with the key as actor, the object and the changed fields; secrets never appear", async () => {
    const a = await newAccount();
    const api = a.api;
    const secrets: string[] = ["whsec-created-secret-value-1", "whsec-patched-secret-value-2", "tk_CHANNEL_TOKEN_ONE", "tk_CHANNEL_TOKEN_TWO"];

    const trackable = await ok(api("POST", "/trackables", { name: "Van 1", type: "vehicle" }), 201);
    await ok(api("PATCH", `/trackables/${trackable.id}`, { tracking: "paused", motion: { speedLimit: 90 } }));
    const fence = await ok(api("POST", "/geofences", { name: "Depot", latitude: 52.52, longitude: 13.405, radius: 100 }), 201);
    await ok(api("PATCH", `/geofences/${fence.id}`, { radius: 250 }));
    const fenceSecret = (await ok(api("POST", `/geofences/${fence.id}/rotate-secret`, {}))).secret as string;
    const token = await ok(api("POST", `/trackables/${trackable.id}/device-tokens`, { name: "Phone" }), 201);
    await ok(api("DELETE", `/trackables/${trackable.id}/device-tokens/${token.id}`), 204);
    const hook = await ok(api("POST", "/webhooks", { url: "https://example.com/hook", events: ["geofence.entry"], secret: secrets[0] }), 201);
    await ok(api("PATCH", `/webhooks/${hook.id}`, { secret: secrets[1], description: "Ops" }));
    const rotated = (await ok(api("POST", `/webhooks/${hook.id}/rotate-secret`, {}))).secret as string;
    await ok(api("DELETE", `/webhooks/${hook.id}`), 204);
    const channel = await ok(api("POST", "/notification-channels", { name: "Phones", type: "ntfy", config: { topic: "fleet", token: secrets[2] } }), 201);
    await ok(api("PATCH", `/notification-channels/${channel.id}`, { config: { token: secrets[3] } }));
    const rule = await ok(api("POST", "/notification-rules", { name: "Arrivals", eventTypes: ["geofence.entry"], channelIds: [channel.id] }), 201);
    await ok(api("PATCH", `/notification-rules/${rule.id}`, { cooldownSeconds: 600 }));
    await ok(api("DELETE", `/notification-rules/${rule.id}`), 204);
    await ok(api("DELETE", `/notification-channels/${channel.id}`), 204);
    const link = await ok(api("POST", "/share-links", { trackableId: trackable.id }), 201);
    await ok(api("DELETE", `/share-links/${link.id}`), 204);
    const zone = await ok(api("POST", "/privacy-zones", { name: "Home", latitude: 52.5, longitude: 13.4, radius: 100 }), 201);
    await ok(api("PATCH", `/privacy-zones/${zone.id}`, { mode: "blur" }));
    await ok(api("DELETE", `/privacy-zones/${zone.id}`), 204);
    await ok(api("PATCH", "/account", { retention: { locationDays: 30 } }));
    await ok(api("DELETE", `/geofences/${fence.id}`), 204);
    await ok(api("DELETE", `/trackables/${trackable.id}`), 204);
    // Locations are not audited.
    const trackable2 = await ok(api("POST", "/trackables", { name: "Van 2", type: "vehicle" }), 201);
    const posted = await api("POST", `/trackables/${trackable2.id}/locations`, { locations: [{ latitude: 52.5, longitude: 13.4, timestamp: new Date().toISOString() }] });
    expect(posted.status, posted.text).toBeLessThan(300);

    const { entries, text } = await auditLog(api);
    expect(entries.map((e) => `${e.action} ${e.objectId}`)).toEqual([
      `trackable.created ${trackable.id}`,
      `trackable.updated ${trackable.id}`,
      `geofence.created ${fence.id}`,
      `geofence.updated ${fence.id}`,
      `geofence.secretRotated ${fence.id}`,
      `deviceToken.created ${token.id}`,
      `deviceToken.revoked ${token.id}`,
      `webhook.created ${hook.id}`,
      `webhook.updated ${hook.id}`,
      `webhook.secretRotated ${hook.id}`,
      `webhook.deleted ${hook.id}`,
      `notificationChannel.created ${channel.id}`,
      `notificationChannel.updated ${channel.id}`,
      `notificationRule.created ${rule.id}`,
      `notificationRule.updated ${rule.id}`,
      `notificationRule.deleted ${rule.id}`,
      `notificationChannel.deleted ${channel.id}`,
      `shareLink.created ${link.id}`,
      `shareLink.revoked ${link.id}`,
      `privacyZone.created ${zone.id}`,
      `privacyZone.updated ${zone.id}`,
      `privacyZone.deleted ${zone.id}`,
      `account.updated ${a.accountId}`,
      `geofence.deleted ${fence.id}`,
      `trackable.deleted ${trackable.id}`,
      `trackable.created ${trackable2.id}`,
    ]);
    for (const e of entries) {
      expect(e.actor).toEqual({ type: "apiKey", id: a.keyId, name: expect.any(String) });
      expect(e.clientAddress).toEqual(expect.any(String));
      expect(e.objectType).toBe(e.action.split(".")[0]);
    }
    const find = (action: string) => entries.find((e) => e.action === action)!;
    const after = (action: string, field: string) => find(action).changes[field]?.[1];
    expect(find("trackable.updated").changes.tracking).toEqual(["active", "paused"]);
    expect(after("trackable.updated", "motion.speedLimit")).toBe(90);
    expect(find("geofence.updated").changes).toEqual({ radius: [100, 250] });
    expect(find("geofence.secretRotated").changes).toEqual({ webhookSecret: [null, "[redacted]"] });
    expect(find("webhook.created").changes.secret).toEqual([null, "[redacted]"]);
    expect(after("webhook.updated", "description")).toBe("Ops");
    expect(find("webhook.updated").changes.secret).toEqual(["[redacted]", "[redacted]"]);
    expect(find("webhook.secretRotated").changes.secret).toEqual(["[redacted]", "[redacted]"]);
    expect(find("notificationChannel.updated").changes).toEqual({ "config.token": ["[redacted]", "[redacted]"] });
    expect(after("notificationRule.updated", "cooldownSeconds")).toBe(600);
    expect(find("privacyZone.updated").changes).toEqual({ mode: ["drop", "blur"] });
    expect(find("account.updated").changes).toEqual({ "retention.locationDays": [null, 30] });
    expect(find("shareLink.revoked").changes).toEqual({ revokedAt: [null, expect.any(String)] });
    expect(find("trackable.deleted").changes).toMatchObject({ name: ["Van 1", null] });

    // No secret, token or share link, in any form, anywhere in the log.
    const shareToken = (link.url as string).split("/").pop()!;
    for (const secret of [...secrets, fenceSecret, rotated, token.token as string, shareToken]) expect(text).not.toContain(secret);
  });

  it("writes nothing for a change that fails", async () => {
    const a = await newAccount();
    const fence = await ok(a.api("POST", "/geofences", { name: "Depot", latitude: 52.52, longitude: 13.405, radius: 100 }), 201);
    const before = (await auditLog(a.api)).entries.length;
    expect((await a.api("PATCH", `/geofences/${fence.id}`, { radius: -5 })).status).toBe(400);
    expect((await a.api("POST", "/trackables", { name: "" })).status).toBe(400);
    expect((await a.api("POST", "/notification-rules", { name: "R", eventTypes: ["geofence.entry"], channelIds: ["00000000-0000-4000-8000-000000000000"] })).status).toBe(400);
    expect((await a.api("DELETE", "/webhooks/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    // A change to nothing (the same value again) is no change.
    await ok(a.api("PATCH", `/geofences/${fence.id}`, { radius: 100 }));
    expect((await auditLog(a.api)).entries.length).toBe(before);
  });

  it("shows an account only its own entries, whatever the filters", async () => {
    const a = await newAccount();
    const b = await newAccount();
    await ok(a.api("POST", "/trackables", { name: "A's van", type: "vehicle" }), 201);
    await ok(b.api("POST", "/trackables", { name: "B's van", type: "vehicle" }), 201);
    const seen = await auditLog(b.api);
    expect(seen.entries).toHaveLength(1);
    expect(seen.text).not.toContain("A's van");
    expect((await auditLog(b.api, `&actorId=${a.keyId}`)).entries).toEqual([]);
  });

  it("filters by actor, action, object type and time, and pages without gaps or repeats", async () => {
    const a = await newAccount();
    const other = await a.newKey();
    const start = new Date().toISOString();
    for (let i = 0; i < 5; i++) await ok(a.api("POST", "/trackables", { name: `Van ${i}`, type: "vehicle" }), 201);
    await ok(request("POST", "/api/v1/geofences", { key: other, body: { name: "Depot", latitude: 52.52, longitude: 13.405, radius: 100 } }), 201);

    const pages: Entry[] = [];
    let cursor: string | null = null;
    do {
      const res: ApiResponse = await a.api("GET", `/audit-log?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      pages.push(...res.body.data);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(pages).toHaveLength(6);
    expect(new Set(pages.map((e) => e.id)).size).toBe(6);
    expect(pages.map((e) => e.occurredAt)).toEqual([...pages.map((e) => e.occurredAt)].sort().reverse());

    expect((await auditLog(a.api, `&action=geofence.created`)).entries).toHaveLength(1);
    expect((await auditLog(a.api, `&objectType=trackable`)).entries).toHaveLength(5);
    const byOther = (await auditLog(a.api, `&actorId=${pages[0]!.actor.id}`)).entries;
    expect(byOther.map((e) => e.action)).toEqual(["geofence.created"]);
    expect((await auditLog(a.api, `&from=${encodeURIComponent(start)}`)).entries).toHaveLength(6);
    expect((await auditLog(a.api, `&to=${encodeURIComponent(start)}`)).entries).toHaveLength(0);
    const bad = await a.api("GET", "/audit-log?actorId=nope&limit=101&from=yesterday");
    expect(bad.status).toBe(400);
    for (const field of ["actorId", "limit", "from"]) expect(bad.body.error.message).toContain(field);
  });

  it("is readable only with a full-access key", async () => {
    const slug = `audit-scope-${Date.now().toString(36)}-${process.pid}`;
    const res = await adminRequest(inject("adminSocket"), inject("adminToken"), "POST", "/api-keys", { account: slug, plan: "enterprise", scopes: ["trackables:read", "trackables:write"] });
    expect(res.status, res.text).toBe(201);
    const refused = await request("GET", "/api/v1/audit-log", { key: (res.body as { key: string }).key });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "insufficient_scope", scope: "*" });
  });
});

describe("audit log through the dashboard", () => {
  it("records sign-ins, two-factor changes and failures, and the dashboard's changes with the user as actor", async () => {
    const email = uniqueEmail("audit");
    const user = await signUpUser(baseUrl(), email);
    const headers = { "X-Forwarded-For": "203.0.113.77" };
    const { cookie } = await signIn(baseUrl(), user.email, user.password, { headers });
    const created = await postAction(baseUrl(), { page: "/api-keys", file: "lib/api-keys/actions.ts", name: "createApiKeyAction", args: [{ name: "Audit reader" }], cookie });
    const key = /"key":"(fl_[A-Za-z0-9_-]+)"/.exec(created.text)?.[1];
    expect(key, created.text.slice(0, 300)).toBeDefined();
    const api: Api = (method, path, body) => request(method, `/api/v1${path}`, { key, body });

    const file = "lib/auth/actions.ts";
    const begun = await postAction(baseUrl(), { page: "/account", file, name: "beginTwoFactorAction", args: [], cookie });
    const secret = /"secret":"([A-Z2-7]+)"/.exec(begun.text)![1]!;
    const enabled = await postAction(baseUrl(), { page: "/account", file, name: "enableTwoFactorAction", args: [{ code: totpCode(secret) }], cookie });
    expect(enabled.text).toContain('"ok":true');
    const wrong = await signIn(baseUrl(), user.email, user.password, { headers, code: "000000" });
    expect(wrong.error).toBe("TwoFactorInvalid");
    // An API change in between: the key's own entry.
    await ok(api("POST", "/trackables", { name: "Van", type: "vehicle" }), 201);

    const { entries, text } = await auditLog(api);
    const userId = entries[0]!.actor.id;
    expect(entries.map((e) => [e.action, e.actor.type])).toEqual([
      ["user.signedIn", "user"],
      ["apiKey.created", "user"],
      ["user.twoFactorEnabled", "user"],
      ["user.twoFactorFailed", "user"],
      ["trackable.created", "apiKey"],
    ]);
    for (const e of entries.filter((x) => x.actor.type === "user")) {
      expect(e.actor).toEqual({ type: "user", id: userId, name: email });
      expect(e.clientAddress).toEqual(expect.any(String));
    }
    // The address the server saw (it trusts no proxy header here): this test's own loopback connection.
    for (const e of entries) expect(e.clientAddress).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
    expect(entries[1]!.changes).toMatchObject({ name: [null, "Audit reader"], scopes: [null, ["*"]] });
    expect(entries[2]!.changes).toEqual({ twoFactor: [false, true] });
    expect(text).not.toContain(key!);
    expect(text).not.toContain(secret);

    // The next step's code (the one that turned it on was used) signs in.
    const next = totpCode(secret, Date.now() + TOTP_PERIOD_S * 1000);
    expect((await signIn(baseUrl(), user.email, user.password, { headers, code: next })).ok).toBe(true);
    expect((await auditLog(api, "&action=user.signedIn")).entries).toHaveLength(2);
  });
});
