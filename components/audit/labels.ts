// How the audit log page names what its entries hold: object types and actions in words, and a changed value short
// enough for a table cell.

const OBJECT_TYPES: Record<string, string> = {
  account: "Account",
  apiKey: "API key",
  deviceToken: "Device token",
  geofence: "Geofence",
  notificationChannel: "Notification channel",
  notificationRule: "Notification rule",
  privacyZone: "Privacy zone",
  shareLink: "Share link",
  trackable: "Trackable",
  user: "User",
  webhook: "Webhook",
};

const VERBS: Record<string, string> = {
  created: "created",
  updated: "updated",
  deleted: "deleted",
  revoked: "revoked",
  secretRotated: "secret rotated",
  signedIn: "signed in",
  passwordChanged: "password changed",
  passwordReset: "password reset",
  twoFactorEnabled: "two-factor turned on",
  twoFactorDisabled: "two-factor turned off",
  twoFactorFailed: "two-factor code refused",
};

/** An unknown type or verb shows as itself: a new action needs no label to be listed. */
export const objectTypeLabel = (type: string): string => OBJECT_TYPES[type] ?? type;

/** "geofence.secretRotated" → "Geofence secret rotated". */
export function actionLabel(action: string): string {
  const [type = "", verb = ""] = action.split(".");
  return `${objectTypeLabel(type)} ${VERBS[verb] ?? verb}`;
}

/** A before or after value in a few words: null as "—", lists and objects as compact JSON, cut at 80 characters. */
export function shortValue(value: unknown): string {
  if (value === null || value === undefined) return "—";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** Which badge colour an action's verb gets. */
export function actionColor(action: string): "green" | "red" | "yellow" | "blue" | "gray" {
  const verb = action.split(".")[1] ?? "";
  if (verb === "created" || verb === "signedIn" || verb === "twoFactorEnabled") return "green";
  if (verb === "deleted" || verb === "revoked" || verb === "twoFactorDisabled" || verb === "twoFactorFailed") return "red";
  if (verb === "secretRotated" || verb.startsWith("password")) return "yellow";
  return "blue";
}
