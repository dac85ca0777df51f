import type { z } from "zod";

/** How the dashboard's forms name the fields of the API's schemas (others: "exitBuffer" → "Exit buffer"). */
const LABELS: Record<string, string> = {
  url: "Endpoint URL",
  webhookUrl: "Webhook URL",
  webhookSecret: "Signing secret",
  secret: "Signing secret",
  events: "Events",
  email: "Email",
  password: "Password",
  currentPassword: "Current password",
  newPassword: "New password",
  expiresAt: "Expiry",
  expiresIn: "Expiry",
  expireCurrentIn: "Overlap",
  trackableIds: "Trackables",
  trackableId: "Trackable",
  // The geofence editor's names (components/geofences/geofence-editor.tsx).
  debounceSeconds: "Debounce",
  dwellSeconds: "Dwell time",
  maxAccuracy: "Maximum accuracy",
  externalId: "External ID",
  notificationType: "Notification type",
};

/** A form's own names for its fields, e.g. `{ name: "Workspace name" }`. */
export type FieldLabels = Record<string, string>;

export function fieldLabel(key: string, labels: FieldLabels = {}): string {
  const last = key.split(".").pop()!.replace(/\[\d+\]$/, "");
  const own = labels[key] ?? labels[last] ?? LABELS[last];
  if (own) return own;
  const words = last.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const sentence = (text: string) => {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
};

// zod's own wording ("Too small: expected string to have >=1 characters", "Invalid input: expected number, received
// NaN"): never shown as it is, rewritten from the issue instead.
const ZOD_DEFAULT = /^(Too (small|big)|Invalid (input|option|string|email|url|uuid|format|value|type|key|element|union|date)|Unrecognized key|Expected )/i;

/**
 * One zod issue as a sentence that names its field: "Name must be 1–100 characters.", "Latitude must be at least -90.",
 * "Email is required.". A schema's own message is kept (prefixed with the label when it is a fragment such as
 * "must use http or https"); zod's default wording is replaced.
 */
export function issueSentence(key: string, issue: z.core.$ZodIssue, labels?: FieldLabels): string {
  const label = fieldLabel(key, labels);
  if (!ZOD_DEFAULT.test(issue.message)) return fieldSentence(key, issue.message, labels);
  switch (issue.code) {
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") return min <= 1 ? `${label} is required.` : `${label} must be at least ${min} characters.`;
      if (issue.origin === "array" || issue.origin === "set") return min <= 1 ? `Choose at least one of ${label.toLowerCase()}.` : `${label} needs at least ${min} entries.`;
      return `${label} must be ${issue.inclusive === false ? "more than" : "at least"} ${min}.`;
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") return `${label} must be at most ${max} characters.`;
      if (issue.origin === "array" || issue.origin === "set") return `${label} can have at most ${max} entries.`;
      return `${label} must be ${issue.inclusive === false ? "less than" : "at most"} ${max}.`;
    }
    case "invalid_type":
      // zod leaves the input out of its issues; its message still says what it received.
      if (/received (undefined|null)\b/.test(issue.message) || issue.input === "") return `${label} is required.`;
      return `${label} must be ${issue.expected === "number" || issue.expected === "int" ? "a number" : `a ${issue.expected}`}.`;
    case "invalid_format":
      if (issue.format === "email") return "Enter a valid email address.";
      if (issue.format === "url") return `${label} must be a full URL, such as https://example.com/hooks.`;
      if (issue.format === "datetime") return `${label} must be a date and time.`;
      return `${label} is not in the expected format.`;
    case "invalid_value":
      return `${label} must be one of: ${issue.values.map(String).join(", ")}.`;
    case "unrecognized_keys":
      return `${label} is not a field this form accepts.`;
    case "not_multiple_of":
      return `${label} must be a multiple of ${String(issue.divisor)}.`;
    default:
      return `${label} is not valid.`;
  }
}

/** A message about a field (a schema's fragment such as "must be 1–100 characters", or a whole sentence) as a sentence. */
export function fieldSentence(key: string, message: string, labels?: FieldLabels): string {
  const m = message.trim();
  // A polygon's problems name rings and positions; the geofence editor words them (components/geofences/geofence-messages.ts).
  if (key === "geometry" || key.startsWith("geometry.")) return m;
  if (/^[a-z]/.test(m)) return sentence(`${fieldLabel(key, labels)} ${m}`);
  return sentence(m);
}

/** Every issue of a failed parse as `{ field: sentence }` (the first issue of each field). */
export function fieldErrorsFromIssues(
  issues: z.core.$ZodIssue[],
  keyOf: (issue: z.core.$ZodIssue) => string[],
  labels?: FieldLabels,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) for (const key of keyOf(issue)) out[key || "_"] ??= issueSentence(key, issue, labels);
  return out;
}
