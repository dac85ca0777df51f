import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, request, useServer } from "../harness/client";
import { postAction, signIn } from "../harness/dashboard";
import { startServer, type TestServer } from "../harness/server";
import { actionResult, invite, joined, signedUp, teamsAction, type TestMember } from "../harness/teams";
import { startSmtpCapture } from "../support/smtp";
import { openSse } from "../support/sse";

// Invitations, roles, removal and ownership through the dashboard's actions against the built server and its database.

const slugOf = async (member: TestMember) => {
  const page = await (await fetch(`${baseUrl()}/account`, { headers: { cookie: member.cookie } })).text();
  return /data-testid="account-slug">([^<]+)</.exec(page)?.[1];
};

/** Member ids by email, from the account page's members table as `viewer` sees it. */
async function memberIds(viewer: TestMember): Promise<Record<string, string>> {
  const page = await (await fetch(`${baseUrl()}/account`, { headers: { cookie: viewer.cookie } })).text();
  return Object.fromEntries(
    page
      .split('data-member-id="')
      .slice(1)
      .map((row) => [/[\w.+-]+@example\.com/.exec(row)![0], row.slice(0, 36)]),
  );
}

/** The owner's API key with every scope, made on the API keys page. */
async function ownerKey(owner: TestMember): Promise<string> {
  const res = await postAction(baseUrl(), { file: "lib/api-keys/actions.ts", name: "createApiKeyAction", args: [{ name: "audit" }], cookie: owner.cookie });
  return actionResult(res.text).key as string;
}

const trackable = (member: TestMember, name: string) =>
  postAction(baseUrl(), { file: "lib/trackables/actions.ts", name: "createTrackableAction", args: [{ name, type: "vehicle" }], cookie: member.cookie }).then((r) =>
    actionResult(r.text),
  );

describe("invitations", () => {
  it("a link joins the invited address once, with the role, and says why it no longer works", async () => {
    const owner = await signedUp("owner");
    const email = `Invitee+${Date.now().toString(36)}@example.com`;
    const { token, link, result } = await invite(owner, email, "member");
    expect(link).toMatch(/\/invitations\/[\w-]{43}$/);
    expect(result.data.invitation).toMatchObject({ email: email.toLowerCase(), role: "member" });
    expect(result.data.mailed).toBe(false);

    // Not signed in: the page offers sign-up (with the address) and sign-in, both coming back here.
    const anonymous = await (await fetch(`${baseUrl()}/invitations/${token}`)).text();
    expect(anonymous).toContain("Create an account to join");
    expect(anonymous).toContain(`callbackUrl=${encodeURIComponent(`/invitations/${token}`)}`);

    // Someone else's session cannot use it.
    const stranger = await signedUp("stranger");
    const refused = actionResult((await teamsAction("acceptInvitationAction", [{ token }], stranger.cookie)).text);
    expect(refused).toMatchObject({ ok: false, code: "conflict", error: expect.stringContaining("another email address") });

    const invitee = await signedUp("invitee", email.toLowerCase());
    expect(await slugOf(invitee)).not.toBe(await slugOf(owner));
    expect(actionResult((await teamsAction("acceptInvitationAction", [{ token }], invitee.cookie)).text).ok).toBe(true);
    // The dashboard now opens the workspace joined, as a member: trackables yes, API keys no.
    expect(await slugOf(invitee)).toBe(await slugOf(owner));
    expect((await trackable(invitee, "Van")).ok).toBe(true);
    expect((await fetch(`${baseUrl()}/api-keys`, { headers: { cookie: invitee.cookie }, redirect: "manual" })).status).toBe(403);

    const again = actionResult((await teamsAction("acceptInvitationAction", [{ token }], invitee.cookie)).text);
    expect(again).toMatchObject({ ok: false, error: expect.stringContaining("already used") });
    expect(await (await fetch(`${baseUrl()}/invitations/${token}`)).text()).toContain("This invitation was already used");
    expect(await (await fetch(`${baseUrl()}/invitations/not-a-token`)).text()).toContain("This invitation link is not valid");
  });

  it("a revoked invitation stops working at once; members cannot invite; an existing member is a conflict", async () => {
    const owner = await signedUp("owner");
    const email = `revoked+${Date.now().toString(36)}@example.com`;
    const { token, result } = await invite(owner, email, "viewer");
    const revoked = actionResult((await teamsAction("revokeInvitationAction", [{ id: result.data.invitation.id }], owner.cookie)).text);
    expect(revoked.ok).toBe(true);
    expect(await (await fetch(`${baseUrl()}/invitations/${token}`)).text()).toContain("This invitation was withdrawn");
    const invitee = await signedUp("revoked", email);
    expect(actionResult((await teamsAction("acceptInvitationAction", [{ token }], invitee.cookie)).text)).toMatchObject({ ok: false, error: expect.stringContaining("withdrawn") });

    const member = await joined(owner, "member");
    const byMember = actionResult((await teamsAction("inviteMemberAction", [{ email: "x@example.com", role: "viewer" }], member.cookie)).text);
    expect(byMember).toMatchObject({ ok: false, code: "forbidden", error: "You need the admin role in this workspace to do this." });
    const twice = actionResult((await teamsAction("inviteMemberAction", [{ email: member.email, role: "viewer" }], owner.cookie)).text);
    expect(twice).toMatchObject({ ok: false, code: "conflict" });
    const asOwner = actionResult((await teamsAction("inviteMemberAction", [{ email: "y@example.com", role: "owner" }], owner.cookie)).text);
    expect(asOwner).toMatchObject({ ok: false, code: "invalid_request", fieldErrors: { role: expect.any(String) } });
  });
});

describe("members", () => {
  let owner: TestMember;
  let admin: TestMember;
  let member: TestMember;
  let ids: Record<string, string>;
  beforeAll(async () => {
    owner = await signedUp("owner");
    admin = await joined(owner, "admin");
    member = await joined(owner, "member");
    ids = await memberIds(owner);
  });

  it("an admin re-roles a member; the new role holds on the next request", async () => {
    expect((await trackable(member, "Before")).ok).toBe(true);
    const changed = actionResult((await teamsAction("changeRoleAction", [{ userId: ids[member.email], role: "viewer" }], admin.cookie)).text);
    expect(changed).toMatchObject({ ok: true, data: { role: "viewer" } });
    expect(await trackable(member, "After")).toMatchObject({ ok: false, code: "forbidden" });
    expect(actionResult((await teamsAction("changeRoleAction", [{ userId: ids[member.email], role: "member" }], admin.cookie)).text).ok).toBe(true);
  });

  it("nobody removes or re-roles the owner, and only the owner transfers ownership", async () => {
    const ownerId = ids[owner.email]!;
    expect(actionResult((await teamsAction("removeMemberAction", [{ userId: ownerId }], admin.cookie)).text)).toMatchObject({ ok: false, code: "conflict" });
    expect(actionResult((await teamsAction("changeRoleAction", [{ userId: ownerId, role: "viewer" }], admin.cookie)).text)).toMatchObject({ ok: false, code: "conflict" });
    expect(actionResult((await teamsAction("transferOwnershipAction", [{ userId: ids[admin.email] }], admin.cookie)).text)).toMatchObject({ ok: false, code: "forbidden" });
  });

  it("removal ends the member's access to the workspace at once; they keep a workspace of their own", async () => {
    const other = await joined(owner, "member");
    const key = await ownerKey(owner);
    const otherId = (await memberIds(owner))[other.email]!;
    const teamSlug = await slugOf(owner);
    expect(await slugOf(other)).toBe(teamSlug);

    // A live page of the workspace is open: its stream ends with the removal, not at the member's next request.
    const live = await openSse(`${baseUrl()}/api/internal/stream?scope=trackables`, { cookie: other.cookie });
    try {
      expect(live.status).toBe(200);
      await live.until(() => live.frames.some((f) => f.event === "ready"), 10_000, "the ready frame");
      expect(actionResult((await teamsAction("removeMemberAction", [{ userId: otherId }], admin.cookie)).text).ok).toBe(true);
      await live.until(() => live.ended, 5_000, "the stream's end");
    } finally {
      live.close();
    }
    // The same cookie, the very next request: another (new, own) workspace.
    const after = await slugOf(other);
    expect(after).toBeDefined();
    expect(after).not.toBe(teamSlug);
    const made = await trackable(other, "Mine");
    expect(made.ok).toBe(true);
    const team = await request("GET", "/api/v1/trackables?limit=100", { key });
    expect((team.body.data as { id: string }[]).map((t) => t.id)).not.toContain(made.data.id);
  });

  it("the owner transfers ownership: the new owner can delete the workspace, the old one is an admin; each change audited", async () => {
    expect(actionResult((await teamsAction("transferOwnershipAction", [{ userId: ids[admin.email] }], owner.cookie)).text).ok).toBe(true);
    const page = await (await fetch(`${baseUrl()}/account`, { headers: { cookie: admin.cookie } })).text();
    expect(page).toContain("Delete workspace");
    const oldOwner = await (await fetch(`${baseUrl()}/account`, { headers: { cookie: owner.cookie } })).text();
    expect(oldOwner).not.toContain("Delete workspace");
    expect(oldOwner).toContain("Invite someone");

    const key = await ownerKey(admin);
    const log = await request("GET", "/api/v1/audit-log?objectType=member&limit=100", { key });
    const actions = (log.body.data as { action: string }[]).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["member.added", "member.roleChanged", "member.removed", "ownership.transferred"]));
    const invitations = await request("GET", "/api/v1/audit-log?objectType=invitation&limit=100", { key });
    expect((invitations.body.data as { action: string }[]).map((e) => e.action)).toContain("invitation.created");
    expect(invitations.text).not.toMatch(/token/i);
  });
});

describe("with SMTP_URL", () => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await startServer({ env: { SMTP_URL: smtp.url, SMTP_FROM: "Fenceline <noreply@example.com>" } });
    useServer(server);
  });
  afterAll(async () => {
    useServer(null);
    await server?.stop();
    await smtp?.close();
  });

  it("mails the invitation link, which joins the workspace", async () => {
    const owner = await signedUp("owner");
    const email = `mailed+${Date.now().toString(36)}@example.com`;
    const { link, result } = await invite(owner, email, "viewer");
    expect(result.data.mailed).toBe(true);
    const mail = await smtp.next();
    expect(mail.envelope.to).toEqual([email]);
    expect(mail.parsed.subject).toMatch(/^Join “.+” on Fenceline$/);
    expect(mail.parsed.text).toContain(link);
    expect(mail.parsed.text).toContain("as viewer");
    const invitee = await signedUp("mailed", email);
    const token = link.slice(link.lastIndexOf("/") + 1);
    expect(actionResult((await teamsAction("acceptInvitationAction", [{ token }], invitee.cookie)).text).ok).toBe(true);
    expect((await signIn(baseUrl(), email, invitee.password)).ok).toBe(true);
  });
});

describe("several workspaces", () => {
  it("a user switches between the workspaces they belong to, creates another, and cannot choose one of someone else's", async () => {
    const owner = await signedUp("owner");
    const viewer = await joined(owner, "viewer");
    const teamSlug = await slugOf(owner);
    expect(await slugOf(viewer)).toBe(teamSlug);
    const page = await (await fetch(`${baseUrl()}/trackables`, { headers: { cookie: viewer.cookie } })).text();
    const ids = [...page.matchAll(/<option value="([0-9a-f-]{36})"/g)].map((m) => m[1]!);
    expect(ids).toHaveLength(2);

    // Their own workspace (joined first) and the team's, in that order. Switching is remembered for the user...
    expect(actionResult((await teamsAction("switchWorkspaceAction", [{ accountId: ids[0] }], viewer.cookie)).text).ok).toBe(true);
    expect(await slugOf(viewer)).not.toBe(teamSlug);
    expect(actionResult((await teamsAction("switchWorkspaceAction", [{ accountId: ids[1] }], viewer.cookie)).text).ok).toBe(true);
    expect(await slugOf(viewer)).toBe(teamSlug);
    // ...and the browser's cookie chooses among the user's workspaces.
    const withCookie = await (await fetch(`${baseUrl()}/account`, { headers: { cookie: `${viewer.cookie}; fl_workspace=${ids[0]}` } })).text();
    expect(withCookie).not.toContain(`>${teamSlug}<`);

    // A workspace the user does not belong to is refused, by the action and as a forged cookie.
    const stranger = await signedUp("stranger");
    const strangerPage = await (await fetch(`${baseUrl()}/account`, { headers: { cookie: stranger.cookie } })).text();
    expect(strangerPage).not.toContain(teamSlug);
    const forged = await fetch(`${baseUrl()}/account`, { headers: { cookie: `${stranger.cookie}; fl_workspace=${ids[1]}` } });
    expect(await forged.text()).not.toContain(`>${teamSlug}<`);
    expect(actionResult((await teamsAction("switchWorkspaceAction", [{ accountId: ids[1] }], stranger.cookie)).text)).toMatchObject({ ok: false, code: "not_found" });

    // "New workspace": owned by its creator, who can delete it.
    const created = actionResult((await teamsAction("createWorkspaceAction", [{ name: "Second fleet" }], viewer.cookie)).text);
    expect(created.ok).toBe(true);
    const account = await (await fetch(`${baseUrl()}/account`, { headers: { cookie: viewer.cookie } })).text();
    expect(account).toContain("Second fleet");
    expect(account).toContain("Delete workspace");
  });

  it("a user's role holds in its own workspace only, and one workspace's objects are not found from another", async () => {
    const owner = await signedUp("owner");
    const user = await joined(owner, "viewer");
    const page = await (await fetch(`${baseUrl()}/trackables`, { headers: { cookie: user.cookie } })).text();
    const [own, team] = [...page.matchAll(/<option value="([0-9a-f-]{36})"/g)].map((m) => m[1]!);
    const act = (name: string, args: unknown[], member: TestMember) =>
      postAction(baseUrl(), { file: "lib/trackables/actions.ts", name, args, cookie: member.cookie }).then((r) => actionResult(r.text));
    const switchTo = async (accountId: string) => expect(actionResult((await teamsAction("switchWorkspaceAction", [{ accountId }], user.cookie)).text).ok).toBe(true);

    const teams = await trackable(owner, "Team van");
    await switchTo(own!);
    const mine = await trackable(user, "Own van");
    expect(mine.ok).toBe(true);

    // In the team's workspace the user is a viewer: no writes, whatever the object.
    await switchTo(team!);
    expect(await act("createTrackableAction", [{ name: "Sneaked in", type: "vehicle" }], user)).toMatchObject({ ok: false, code: "forbidden" });
    expect(await act("updateTrackableAction", [{ id: teams.data.id, name: "Renamed", type: "vehicle" }], user)).toMatchObject({ ok: false, code: "forbidden" });
    // In their own workspace they are the owner, and the team's objects do not exist there: owning one workspace gives
    // nothing in another.
    await switchTo(own!);
    for (const [name, args] of [
      ["updateTrackableAction", [{ id: teams.data.id, name: "Renamed", type: "vehicle" }]],
      ["setTrackingAction", [{ id: teams.data.id, tracking: "paused" }]],
      ["deleteTrackableAction", [{ id: teams.data.id }]],
    ] as const) {
      expect(await act(name, [...args], user), name).toMatchObject({ ok: false, code: "not_found" });
    }
    // The same the other way: the team's owner does not reach the user's own workspace's trackable.
    expect(await act("deleteTrackableAction", [{ id: mine.data.id }], owner)).toMatchObject({ ok: false, code: "not_found" });
    const teamPage = await (await fetch(`${baseUrl()}/trackables`, { headers: { cookie: owner.cookie } })).text();
    expect(teamPage).toContain("Team van");
    expect(teamPage).not.toContain("Own van");
  });
});
