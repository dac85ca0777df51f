import { z } from "zod";
import { requireSignedIn, type DashboardSession } from "@/lib/auth/session";
import { can, requiredRole, type Permission } from "@/lib/teams/roles";
import { ApiError, fieldPath } from "@/lib/http/errors";
import { fieldErrorsFromIssues, fieldSentence, type FieldLabels } from "./field-messages";
import { log } from "@/lib/log/logger";

/** What every dashboard server action returns: data, or errors a form can show next to its fields. */
export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: string; code?: string; fieldErrors: Record<string, string> };

/**
 * The one wrapper for dashboard server actions: the session (redirect to /sign-in without one), the permission the
 * action declares (refused with code "forbidden" when the user's role in the workspace lacks it), the input parsed
 * with the same zod schema the API uses (every invalid field reported by name), then the lib verb. An ApiError
 * (404, plan_required, a URL refused by the policy…) becomes a form error; anything else is logged and generic.
 */
export async function dashboardAction<S extends z.ZodType, T>(
  schema: S,
  input: unknown,
  fn: (args: { input: z.output<S>; session: DashboardSession }) => Promise<T>,
  opts: { permission: Permission; labels?: FieldLabels },
): Promise<ActionResult<T>> {
  const session = await requireSignedIn();
  if (!can(session.role, opts.permission)) return forbiddenResult(opts.permission);
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    // Sentences that name the field ("Name must be 1–100 characters."), never zod's own wording.
    const fieldErrors = fieldErrorsFromIssues(parsed.error.issues, (issue) =>
      issue.code === "unrecognized_keys" ? issue.keys.map((k) => fieldPath([...issue.path, k])) : [fieldPath(issue.path)],
      opts.labels,
    );
    return { ok: false, error: "Check the highlighted fields.", code: "invalid_request", fieldErrors };
  }
  try {
    return { ok: true, data: await fn({ input: parsed.data, session }) };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, error: err.message, code: err.code, fieldErrors: fieldErrorsOf(err.message, opts.labels) };
    log.error("[dashboard] action failed:", err);
    return { ok: false, error: "Something went wrong. Try again.", code: "internal_error", fieldErrors: {} };
  }
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
