import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { provisionApiKey, ProvisionInput } from "@/lib/api-keys/provision";
import { revokeApiKeyById } from "@/lib/api-keys/keys";
import { ResetLinkInput, resetLinkFor } from "@/lib/auth/password-reset";
import { adminToken } from "@/lib/config/secrets";
import { getDb, type Db } from "@/lib/db/client";
import { getLimiter, rateLimitHeaders } from "@/lib/rate-limit";
import { MAX_BODY_BYTES, parseBody } from "./body";
import { ApiError, notFound } from "./errors";
import { json, noContent, toErrorResponse } from "./handler";
import { pathId } from "./params";

const digest = (s: string) => createHash("sha256").update(s).digest();

/** Wrong admin tokens tolerated per client a minute; then every call is refused (429) until the minute has passed. */
export const ADMIN_FAILURES_PER_MINUTE = 10;
const adminFailureLimiter = () => getLimiter("admin-token-failures", ADMIN_FAILURES_PER_MINUTE, 60);

type AdminHandler = (args: { req: Request; db: Db; params: Record<string, string> }) => Promise<Response>;

// The operator endpoint: POST /api/internal/api-keys (apikey:create), DELETE /api/internal/api-keys/{keyId}
// (apikey:revoke) and POST /api/internal/password-resets (user:reset-password). Only the admin socket serves it
// (lib/server/app-server.ts); the TCP port has no such route.
const ROUTES: { pattern: RegExp; method: string; handler: AdminHandler }[] = [
  {
    pattern: /^\/api\/internal\/api-keys$/,
    method: "POST",
    handler: async ({ req, db }) => json(await provisionApiKey(db, await parseBody(req, ProvisionInput)), 201),
  },
  {
    pattern: /^\/api\/internal\/api-keys\/(?<keyId>[^/]*)$/,
    method: "DELETE",
    handler: async ({ db, params }) => {
      const id = pathId(params, "keyId", "API key");
      if (!(await revokeApiKeyById(db, id))) throw notFound("API key", id);
      return noContent();
    },
  },
  {
    pattern: /^\/api\/internal\/password-resets$/,
    method: "POST",
    handler: async ({ req, db }) => json(await resetLinkFor(db, (await parseBody(req, ResetLinkInput)).email), 201),
  },
];

/**
 * Authorizes an operator call by the admin token in the data directory, compared in constant time. A client over its
 * budget of wrong tokens is refused before its token is looked at, so a guess that happens to be right cannot be told.
 */
async function authorize(req: Request, client: string): Promise<void> {
  const failures = await adminFailureLimiter().peek(client);
  if (!failures.success) throw tooManyFailures(failures);
  const presented = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
  if (timingSafeEqual(digest(presented), digest(adminToken()))) return;
  const counted = await adminFailureLimiter().limit(client);
  if (!counted.success) throw tooManyFailures(counted);
  throw new ApiError("unauthorized", "Invalid admin token");
}

function tooManyFailures(verdict: Parameters<typeof rateLimitHeaders>[0]): ApiError {
  const retryAfter = rateLimitHeaders(verdict)["Retry-After"]!;
  return new ApiError(
    "rate_limit_exceeded",
    `Too many wrong admin tokens: at most ${verdict.limit} a minute. Retry after ${retryAfter} s.`,
    { "Retry-After": retryAfter },
  );
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade"]);

/** Answers one request that reached the admin socket: the operator routes, each behind the admin token. */
export async function serveAdminRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? "/";
  const request = new Request(new URL(url, "http://localhost"), {
    method: req.method,
    headers: Object.entries(req.headers).flatMap(([k, v]) =>
      v === undefined || HOP_BY_HOP.has(k) ? [] : [[k, Array.isArray(v) ? v.join(", ") : v] as [string, string]],
    ),
    body: req.method === "GET" || req.method === "HEAD" ? undefined : new Uint8Array(await readAll(req)),
  });
  const response = await answer(request, req.socket.remoteAddress || "admin-socket");
  res.statusCode = response.status;
  response.headers.forEach((v, k) => res.setHeader(k, v));
  res.end(Buffer.from(await response.arrayBuffer()));
}

async function answer(req: Request, client: string): Promise<Response> {
  try {
    const pathname = new URL(req.url).pathname;
    const route = ROUTES.find((r) => r.pattern.test(pathname));
    if (!route) throw new ApiError("not_found", `No such endpoint: ${req.method} ${pathname}`);
    if (req.method !== route.method) {
      throw new ApiError("method_not_allowed", `Method ${req.method} is not allowed here. Allowed: ${route.method}`, { Allow: route.method });
    }
    await authorize(req, client);
    const params = { ...route.pattern.exec(pathname)!.groups };
    return await route.handler({ req, db: await getDb(), params });
  } catch (err) {
    return toErrorResponse(err, req);
  }
}

/** The body, at most MAX_BODY_BYTES + 1 bytes of it (parseBody then refuses an oversized one with its 413). */
function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      if (size > MAX_BODY_BYTES) return;
      chunks.push(c);
      size += c.length;
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
