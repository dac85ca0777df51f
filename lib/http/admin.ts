import { createHash, timingSafeEqual } from "node:crypto";
import { adminToken } from "@/lib/config/secrets";
import type { Db } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";
import { ApiError } from "./errors";
import { toErrorResponse, type RouteContext } from "./handler";

const digest = (s: string) => createHash("sha256").update(s).digest();

/**
 * The local operator endpoints under /api/internal (used by the apikey:* scripts while this server holds the
 * embedded database), authorized by the admin token in the data directory, compared in constant time.
 */
export function withAdminToken(
  handler: (args: { req: Request; db: Db; params: Record<string, string | string[] | undefined> }) => Promise<Response>,
) {
  return async (req: Request, context: RouteContext): Promise<Response> => {
    try {
      const presented = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
      if (!timingSafeEqual(digest(presented), digest(adminToken()))) {
        throw new ApiError("unauthorized", "Invalid admin token");
      }
      return await handler({ req, db: await getDb(), params: await context.params });
    } catch (err) {
      return toErrorResponse(err, req);
    }
  };
}
