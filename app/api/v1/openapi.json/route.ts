// GET /api/v1/openapi.json — the OpenAPI 3.1 document of this API (no key needed)
import { json, route, toErrorResponse } from "@/lib/http/handler";
import { openApiDocument } from "@/lib/openapi/document";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  async GET(req) {
    try {
      return json(openApiDocument(), 200, { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" });
    } catch (err) {
      return toErrorResponse(err, req);
    }
  },
});
