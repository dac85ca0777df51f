// GET /api/v1/stops — stops newest first, by trackable and time range
import { parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { StopListQuery } from "@/lib/motion/schemas";
import { listStops } from "@/lib/motion/trips";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx }) => json(await listStops({ ctx, query: parseQuery(req, StopListQuery) }))),
});
