import type { AuditChanges } from "@/lib/db/schema";

// The one place that says what the audit log may show of a changed object. A field named here (at any depth) is shown
// only as REDACTED: the log says that a secret was set or replaced, never what it is. A field in IGNORED is bookkeeping
// that changes with every write and says nothing about the change.

export const REDACTED = "[redacted]";

export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  "secret",
  "webhookSecret",
  "previousSecret",
  "previousWebhookSecret",
  "key",
  "hash",
  "token",
  "tokenHash",
  "botToken",
  "appToken",
  "accessToken",
  "password",
  "passwordHash",
  "currentPassword",
  "newPassword",
  "totpSecret",
  "recoveryCodes",
  "recoveryCodeHashes",
  "smtpUrl",
  "authorization",
  "headers",
]);

const IGNORED: ReadonlySet<string> = new Set(["id", "createdAt", "updatedAt"]);

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** A value as it may be shown: secret fields inside it (objects in arrays too) replaced by REDACTED. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value instanceof Date) return value.toISOString();
  if (!isPlain(value)) return value ?? null;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_FIELDS.has(k) && v != null ? REDACTED : redact(v)]));
}

/** A view without some of its fields (what is not configuration, or must not be shown at all). */
export function omit<T extends Record<string, unknown>, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
  const out: Record<string, unknown> = { ...value };
  for (const k of keys) delete out[k as string];
  return out as Omit<T, K>;
}

/** Only the secret fields of an object (to add to a view that hides them, so that replacing one is recorded). */
export const secretFieldsOf = (value: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(value).filter(([k]) => SECRET_FIELDS.has(k)));

/** JSON with object keys sorted, so that two values compare equal whatever order their keys were written in. */
function canonical(value: unknown): string {
  if (value === undefined || value === null) return "null";
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isPlain(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * Whether canonical(a) === canonical(b), found without writing either out: a polygon's geometry is ~54 KB of JSON, and
 * every update of a geofence compares it. Equal elements and fields give equal text, and the first that differs decides.
 */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (isPlain(a) && isPlain(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return canonical(a) === canonical(b);
}

/**
 * `{field: [before, after]}` for every field that differs between two views of an object (null before = created,
 * null after = deleted); nested objects are compared field by field under dotted names ("motion.maxSpeedKmh"), and
 * absent equals null. Values are compared as they are, then shown through `redact`: a replaced secret is reported as
 * [REDACTED, REDACTED].
 */
export function changesOf(before: Plain | null | undefined, after: Plain | null | undefined): AuditChanges {
  const out: AuditChanges = {};
  walk(before ?? {}, after ?? {}, "", out);
  return out;
}

function walk(before: Plain, after: Plain, prefix: string, out: AuditChanges) {
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (prefix === "" && IGNORED.has(field)) continue;
    const b = before[field];
    const a = after[field];
    const name = prefix + field;
    if (SECRET_FIELDS.has(field)) {
      if (!sameValue(b, a)) out[name] = [b == null ? null : REDACTED, a == null ? null : REDACTED];
    } else if ((isPlain(b) || b == null) && (isPlain(a) || a == null) && (isPlain(a) || isPlain(b))) {
      walk(isPlain(b) ? b : {}, isPlain(a) ? a : {}, `${name}.`, out);
    } else if (!sameValue(b, a)) {
      out[name] = [redact(b), redact(a)];
    }
  }
}
