// POST /api/v1/stream-tokens — a short-lived token that opens live streams (for EventSource, which sends no headers)
import { parseBody } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { StreamTokenInput } from "@/lib/stream/schemas";
import { issueStreamToken } from "@/lib/stream/stream";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  POST: withApiKey(async ({ req, keyId }) =>
    json(issueStreamToken({ keyId, input: await parseBody(req, StreamTokenInput, { emptyAsObject: true }) }), 201),
  ),
});
