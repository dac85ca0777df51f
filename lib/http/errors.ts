import { z } from "zod";

// The one table of error codes and their HTTP statuses (api-contract.md, Errors).
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  plan_required: 403,
  insufficient_scope: 403,
  // A dashboard user whose role in the workspace lacks the permission (lib/teams/roles.ts); API keys get insufficient_scope.
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  cursor_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limit_exceeded: 429,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Extra fields of the error object, beside code and message (insufficient_scope names its `scope`). */
    readonly details: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what: string, id?: string) =>
  new ApiError("not_found", id === undefined ? `${what} not found` : `${what} not found: ${id}`);

/** Renders a path like ["locations", 3, "latitude"] as `locations[3].latitude`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** One message that names every offending field, e.g. "Invalid body: latitude: must be ≤ 90; name: Required". */
export function validationError(error: z.ZodError, where: "body" | "query" | "path"): ApiError {
  const parts: string[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const name = fieldPath([...issue.path, key]);
        parts.push(`${name}: unknown field "${name}"`);
      }
      continue;
    }
    const name = fieldPath(issue.path);
    parts.push(name ? `${name}: ${issue.message}` : issue.message);
  }
  return new ApiError("invalid_request", `Invalid ${where}: ${[...new Set(parts)].join("; ")}`);
}

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]).meta({ description: "Machine-readable code" }),
      message: z.string().meta({ description: "Human-readable explanation naming the offending parameter" }),
      scope: z.string().optional().meta({ description: "With `insufficient_scope`: the scope the request needs", example: "locations:write" }),
    }),
  })
  .meta({ id: "Error" });

export function errorBody(code: ErrorCode, message: string, details: Record<string, string> = {}) {
  return { error: { code, message, ...details } };
}

/** 403 for a key whose scopes do not include the one the request needs. */
export const insufficientScope = (scope: string) =>
  new ApiError(
    "insufficient_scope",
    scope === "*"
      ? `This API key lacks the scope this request needs: "*" (only a key with every scope may do this)`
      : `This API key lacks the scope this request needs: ${scope}`,
    {},
    { scope },
  );
