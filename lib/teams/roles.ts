import type { Role } from "@/lib/db/schema";

export type { Role };

/** Roles from most to least powerful; each can do everything the ones after it can. */
export const ROLES = ["owner", "admin", "member", "viewer"] as const satisfies readonly Role[];

export const ROLE_LABELS: Record<Role, string> = { owner: "Owner", admin: "Admin", member: "Member", viewer: "Viewer" };

/**
 * Every permission a dashboard page or server action asks for, with the least role that holds it. The one table: a
 * page (`requireSession({ permission })`), an action (`dashboardAction(..., { permission })`) and the buttons a page
 * shows all ask `can(role, permission)`.
 */
export const PERMISSIONS = {
  // Reading the workspace: trackables, the map, geofences, events, privacy zones. Never keys or secrets.
  "workspace.read": "viewer",
  // The user's own password and two-factor sign-in.
  "profile.manage": "viewer",
  "trackables.write": "member",
  "geofences.write": "member",
  "deviceTokens.manage": "member",
  "shareLinks.manage": "member",
  "privacyZones.write": "member",
  "imports.write": "member",
  "members.manage": "admin",
  "apiKeys.manage": "admin",
  "webhooks.manage": "admin",
  "notifications.manage": "admin",
  "settings.manage": "admin",
  "auditLog.read": "admin",
  "workspace.export": "admin",
  "workspace.delete": "owner",
  "ownership.transfer": "owner",
} as const satisfies Record<string, Role>;

export type Permission = keyof typeof PERMISSIONS;

const rank = (role: Role): number => ROLES.length - ROLES.indexOf(role);

/** Whether a role holds a permission. */
export function can(role: Role, permission: Permission): boolean {
  return rank(role) >= rank(PERMISSIONS[permission]);
}

/** The least role that holds a permission, for a refusal's wording ("You need the admin role"). */
export const requiredRole = (permission: Permission): Role => PERMISSIONS[permission];
