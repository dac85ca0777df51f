// GET /api/v1/trips — trips newest first, by trackable, status and time range
import { parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { TripListQuery } from "@/lib/motion/schemas";
import { listTrips } from "@/lib/motion/trips";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx }) => json(await listTrips({ ctx, query: parseQuery(req, TripListQuery) }))),
});
