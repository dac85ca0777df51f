// POST /api/internal/provision — create an account's API key for `npm run apikey:create` while this server holds the
// embedded database. Authorized by the admin token in the data directory, which only the operator can read.
import { timingSafeEqual, createHash } from "node:crypto";
import { provisionApiKey, ProvisionInput } from "@/lib/api-keys/provision";
import { adminToken } from "@/lib/config/secrets";
import { getDb } from "@/lib/db/client";
import { parseBody } from "@/lib/http/body";
import { ApiError } from "@/lib/http/errors";
import { json, route, toErrorResponse } from "@/lib/http/handler";

const digest = (s: string) => createHash("sha256").update(s).digest();

export const { GET, POST, PUT, PATCH, DELETE } = route({
  async POST(req) {
    try {
      const presented = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
      if (!timingSafeEqual(digest(presented), digest(adminToken()))) {
        throw new ApiError("unauthorized", "Invalid admin token");
      }
      const input = await parseBody(req, ProvisionInput);
      return json(await provisionApiKey(await getDb(), input), 201);
    } catch (err) {
      return toErrorResponse(err, req);
    }
  },
});
