import { z } from "zod";
import { requireSignedIn, type DashboardSession } from "@/lib/auth/session";
import { can, requiredRole, type Permission } from "@/lib/teams/roles";
import { ApiError, fieldPath } from "@/lib/http/errors";
import { LARGE_BODY_CHARS } from "@/lib/http/body";
import { offThreadName, validateOffThread, type InputCheck } from "@/lib/http/body-pool";
import { fieldErrorsFromIssues, fieldSentence, type FieldLabels } from "./field-messages";
import { log } from "@/lib/log/logger";

/** What every dashboard server action returns: data, or errors a form can show next to its fields. */
export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: string; code?: string; fieldErrors: Record<string, string> };

/**
 * The one wrapper for dashboard server actions: the session (redirect to /sign-in without one), the permission the
 * action declares (refused with code "forbidden" when the user's role in the workspace lacks it), the input parsed
 * with the same zod schema the API uses (every invalid field reported by name; a large polygon in a worker thread),
 * then the lib verb. An ApiError (404, plan_required, a URL refused by the policy…) becomes a form error; anything
 * else is logged and generic.
 */
export async function dashboardAction<S extends z.ZodType, T>(
  schema: S,
  input: unknown,
  fn: (args: { input: z.output<S>; session: DashboardSession }) => Promise<T>,
  opts: { permission: Permission; labels?: FieldLabels },
): Promise<ActionResult<T>> {
  const session = await requireSignedIn();
  if (!can(session.role, opts.permission)) return forbiddenResult(opts.permission);
  const parsed = await parseActionInput(schema, input);
  if (!parsed.success) return invalidInputResult(parsed.issues, opts.labels);
  try {
    return { ok: true, data: await fn({ input: parsed.data, session }) };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, error: err.message, code: err.code, fieldErrors: fieldErrorsOf(err.message, opts.labels) };
    log.error("[dashboard] action failed:", err);
    return { ok: false, error: "Something went wrong. Try again.", code: "internal_error", fieldErrors: {} };
  }
}

/**
 * schema.safeParse(input), with zod's issues: in a worker thread (lib/http/body-pool.ts) when the schema is one of
 * OFF_THREAD_BODIES and the input's JSON is LARGE_BODY_CHARS or more (a 2,000-position polygon held the event loop
 * for tens of ms), inline otherwise and for a value no thread can be sent (a function); the same answer either way.
 */
export async function parseActionInput<S extends z.ZodType>(schema: S, input: unknown): Promise<InputCheck<z.output<S>>> {
  const name = offThreadName(schema);
  if (name && jsonLength(input) >= LARGE_BODY_CHARS) {
    try {
      return (await validateOffThread(name, input)) as InputCheck<z.output<S>>;
    } catch (err) {
      if (!(err instanceof Error && err.name === "DataCloneError")) throw err;
    }
  }
  const parsed = schema.safeParse(input);
  return parsed.success ? { success: true, data: parsed.data } : { success: false, issues: parsed.error.issues };
}

// The input's size as JSON; 0 for one that has none (undefined, a BigInt, a cycle), which then stays inline.
function jsonLength(input: unknown): number {
  try {
    return JSON.stringify(input)?.length ?? 0;
  } catch {
    return 0;
  }
}

/** A form's answer to an invalid input: sentences that name each field ("Name must be 1–100 characters."), never zod's own wording. */
export function invalidInputResult(issues: z.core.$ZodIssue[], labels?: FieldLabels): { ok: false; error: string; code: "invalid_request"; fieldErrors: Record<string, string> } {
  const fieldErrors = fieldErrorsFromIssues(issues, (issue) =>
    issue.code === "unrecognized_keys" ? issue.keys.map((k) => fieldPath([...issue.path, k])) : [fieldPath(issue.path)],
    labels,
  );
  return { ok: false, error: "Check the highlighted fields.", code: "invalid_request", fieldErrors };
}

/** The refusal of an action the user's role does not allow; the server's check, whatever the page showed. */
export function forbiddenResult(permission: Permission): { ok: false; error: string; code: "forbidden"; fieldErrors: Record<string, string> } {
  return { ok: false, error: `You need the ${requiredRole(permission)} role in this workspace to do this.`, code: "forbidden", fieldErrors: {} };
}

// Lib verbs name fields in their messages ("Invalid body: webhookUrl: must use https"): recover them for the form.
function fieldErrorsOf(message: string, labels?: FieldLabels): Record<string, string> {
  const out: Record<string, string> = {};
  const body = message.replace(/^Invalid (body|query|path): /, "");
  for (const part of body.split("; ")) {
    const m = /^([A-Za-z][\w.[\]]*): (.+)$/.exec(part);
    if (m) out[m[1]!] ??= fieldSentence(m[1]!, m[2]!, labels);
  }
  return out;
}
