import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { can, type Permission } from "@/lib/teams/roles";
import { baseUrl } from "../harness/client";
import { builtActions, postAction } from "../harness/dashboard";
import { team, type Role, type TestMember } from "../harness/teams";

// Every dashboard server action, every dashboard page and every session route of the dashboard, walked as the owner,
// an admin, a member and a viewer of one workspace against the built server: each is allowed exactly when the role
// holds the permission below (lib/teams/roles.ts). The lists are read from the source tree, so a new action, page or
// route that is not in these tables fails here until its permission is declared.

type Access = Permission | "public";

const ACTIONS: Record<string, Access> = {
  "lib/accounts/actions.ts#renameWorkspaceAction": "settings.manage",
  "lib/accounts/actions.ts#deleteWorkspaceAction": "workspace.delete",
  "lib/accounts/actions.ts#changePasswordAction": "profile.manage",
  "lib/api-keys/actions.ts#createApiKeyAction": "apiKeys.manage",
  "lib/api-keys/actions.ts#revokeApiKeyAction": "apiKeys.manage",
  "lib/auth/actions.ts#signUpAction": "public",
  "lib/auth/actions.ts#forgotPasswordAction": "public",
  "lib/auth/actions.ts#resetPasswordAction": "public",
  "lib/auth/actions.ts#beginTwoFactorAction": "profile.manage",
  "lib/auth/actions.ts#enableTwoFactorAction": "profile.manage",
  "lib/auth/actions.ts#disableTwoFactorAction": "profile.manage",
  "lib/dashboard/actions.ts#dismissFirstStepsAction": "workspace.read",
  "lib/devices/actions.ts#createDeviceTokenAction": "deviceTokens.manage",
  "lib/devices/actions.ts#revokeDeviceTokenAction": "deviceTokens.manage",
  "lib/geofences/actions.ts#createGeofenceAction": "geofences.write",
  "lib/geofences/actions.ts#updateGeofenceAction": "geofences.write",
  "lib/geofences/actions.ts#deleteGeofenceAction": "geofences.write",
  "lib/geofences/actions.ts#sendTestWebhookAction": "webhooks.manage",
  "lib/geofences/actions.ts#rotateGeofenceSecretAction": "webhooks.manage",
  "lib/geofences/actions.ts#recoverGeofenceAction": "webhooks.manage",
  "lib/geofences/actions.ts#geofenceActivityAction": "workspace.read",
  "lib/notifications/actions.ts#createChannelAction": "notifications.manage",
  "lib/notifications/actions.ts#updateChannelAction": "notifications.manage",
  "lib/notifications/actions.ts#deleteChannelAction": "notifications.manage",
  "lib/notifications/actions.ts#testChannelAction": "notifications.manage",
  "lib/notifications/actions.ts#createRuleAction": "notifications.manage",
  "lib/notifications/actions.ts#updateRuleAction": "notifications.manage",
  "lib/notifications/actions.ts#deleteRuleAction": "notifications.manage",
  "lib/privacy-zones/actions.ts#createPrivacyZoneAction": "privacyZones.write",
  "lib/privacy-zones/actions.ts#updatePrivacyZoneAction": "privacyZones.write",
  "lib/privacy-zones/actions.ts#deletePrivacyZoneAction": "privacyZones.write",
  "lib/share-links/actions.ts#createShareLinkAction": "shareLinks.manage",
  "lib/share-links/actions.ts#revokeShareLinkAction": "shareLinks.manage",
  "lib/teams/actions.ts#inviteMemberAction": "members.manage",
  "lib/teams/actions.ts#revokeInvitationAction": "members.manage",
  "lib/teams/actions.ts#changeRoleAction": "members.manage",
  "lib/teams/actions.ts#removeMemberAction": "members.manage",
  "lib/teams/actions.ts#transferOwnershipAction": "ownership.transfer",
  "lib/teams/actions.ts#acceptInvitationAction": "profile.manage",
  "lib/teams/actions.ts#switchWorkspaceAction": "profile.manage",
  "lib/teams/actions.ts#createWorkspaceAction": "profile.manage",
  "lib/trackables/actions.ts#createTrackableAction": "trackables.write",
  "lib/trackables/actions.ts#updateTrackableAction": "trackables.write",
  "lib/trackables/actions.ts#deleteTrackableAction": "trackables.write",
  "lib/trackables/actions.ts#setTrackingAction": "trackables.write",
  "lib/webhooks/actions.ts#createWebhookAction": "webhooks.manage",
  "lib/webhooks/actions.ts#updateWebhookAction": "webhooks.manage",
  "lib/webhooks/actions.ts#deleteWebhookAction": "webhooks.manage",
  "lib/webhooks/actions.ts#sendEndpointTestAction": "webhooks.manage",
  "lib/webhooks/actions.ts#rotateWebhookSecretAction": "webhooks.manage",
  "lib/webhooks/actions.ts#recoverWebhookAction": "webhooks.manage",
  "lib/webhooks/delivery-actions.ts#redeliverAction": "webhooks.manage",
};

const PAGES: Record<string, Permission> = {
  "/account": "workspace.read",
  "/api-keys": "apiKeys.manage",
  "/audit-log": "auditLog.read",
  "/deliveries": "webhooks.manage",
  "/deliveries/[deliveryId]": "webhooks.manage",
  "/events": "workspace.read",
  "/geofences": "workspace.read",
  "/notifications": "notifications.manage",
  "/privacy-zones": "workspace.read",
  "/trackables": "workspace.read",
  "/trackables/[trackableId]": "workspace.read",
  "/webhooks": "webhooks.manage",
  "/webhooks/[webhookId]": "webhooks.manage",
  "/webhooks/new": "webhooks.manage",
};

// The dashboard's own routes with session auth (lib/http/session.ts), by method.
const ROUTES: Record<string, Permission> = {
  "GET /api/internal/trackables/[trackableId]/imports": "workspace.read",
  "POST /api/internal/trackables/[trackableId]/imports": "imports.write",
  "GET /api/internal/trackables/[trackableId]/locations/export": "workspace.read",
  "GET /api/internal/stream": "workspace.read",
};

const ROLES: Role[] = ["owner", "admin", "member", "viewer"];
// A well-formed id that names nothing: allowed roles get past the permission to a 404 or a validation error.
const SOME_ID = "0190f0e0-0000-7000-8000-000000000000";

function files(dir: string, match: (file: string) => boolean): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).map((f) => path.join(dir, f)).filter(match);
}

/** Every exported function of every "use server" module under lib/. */
function serverActions(): string[] {
  return files("lib", (f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .filter((f) => /^\s*(\/\/[^\n]*\n\s*)*"use server";/.test(fs.readFileSync(f, "utf8")))
    .flatMap((f) => [...fs.readFileSync(f, "utf8").matchAll(/^export (?:async )?function (\w+)/gm)].map((m) => `${f}#${m[1]}`))
    .sort();
}

const DASHBOARD = path.join("app", "(dashboard)");

function dashboardPages(): string[] {
  return files(DASHBOARD, (f) => f.endsWith(`${path.sep}page.tsx`))
    .map((f) => `/${path.relative(DASHBOARD, path.dirname(f)).split(path.sep).join("/")}`)
    .sort();
}

function sessionRoutes(): string[] {
  return files(path.join("app", "api"), (f) => f.endsWith("route.ts"))
    .flatMap((f) => {
      const source = fs.readFileSync(f, "utf8");
      const route = `/${path.dirname(f).split(path.sep).slice(1).join("/")}`;
      return [...source.matchAll(/^\s*(GET|POST|PUT|PATCH|DELETE): withSession\(/gm)].map((m) => `${m[1]} /${route.slice(1)}`);
    })
    .sort();
}

const concrete = (route: string) => route.replace(/\[\w+\]/g, SOME_ID);

describe("the role × action matrix", () => {
  let members: Record<Role, TestMember>;
  beforeAll(async () => {
    members = await team();
  });

  it("knows every server action, page and session route the source tree has", () => {
    expect(serverActions()).toEqual(Object.keys(ACTIONS).sort());
    // And every one is in the build, reachable from a page.
    expect(builtActions().sort()).toEqual(Object.keys(ACTIONS).sort());
    expect(dashboardPages()).toEqual(Object.keys(PAGES).sort());
    expect(sessionRoutes()).toEqual(Object.keys(ROUTES).sort());
  });

  const asRole = Object.entries(ACTIONS).filter((e): e is [string, Permission] => e[1] !== "public");
  it.each(asRole)("%s needs %s", async (key, permission) => {
    const [file, name] = key.split("#") as [string, string];
    for (const role of ROLES) {
      // Two arguments fit every signature: (id, input) gets a valid id; (input) gets a string it refuses after the check.
      const res = await postAction(baseUrl(), { file, name, args: [SOME_ID, {}], cookie: members[role].cookie });
      expect(res.status, `${name} as ${role}: ${res.text.slice(0, 300)}`).toBe(200);
      const refused = res.text.includes('"code":"forbidden"');
      expect(refused, `${name} as ${role} should be ${can(role, permission) ? "allowed" : "refused"}: ${res.text.slice(0, 300)}`).toBe(!can(role, permission));
    }
  });

  it.each(Object.entries(PAGES))("page %s needs %s", async (route, permission) => {
    for (const role of ROLES) {
      const res = await fetch(`${baseUrl()}${concrete(route)}`, { headers: { cookie: members[role].cookie }, redirect: "manual" });
      const text = await res.text();
      if (can(role, permission)) {
        // A page of one object answers 404 for an id that names nothing: past the permission all the same.
        expect(route.includes("[") ? [200, 404] : [200], `${route} as ${role}`).toContain(res.status);
      } else {
        expect(res.status, `${route} as ${role}`).toBe(403);
        expect(text).toContain("You need the admin role");
      }
    }
  });

  it.each(Object.entries(ROUTES))("%s needs %s", async (key, permission) => {
    const [method, route] = key.split(" ") as [string, string];
    for (const role of ROLES) {
      const controller = new AbortController();
      const res = await fetch(`${baseUrl()}${concrete(route)}`, {
        method,
        headers: { cookie: members[role].cookie, "content-type": "application/gpx+xml" },
        body: method === "POST" ? "<gpx/>" : undefined,
        signal: controller.signal,
      });
      controller.abort();
      if (can(role, permission)) expect(res.status, `${key} as ${role}`).not.toBe(403);
      else expect(res.status, `${key} as ${role}`).toBe(403);
    }
  });
});
