// GET /api/v1/trips/{tripId} — one trip
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { getTrip } from "@/lib/motion/trips";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ ctx, params }) => json(await getTrip({ ctx, id: pathId(params, "tripId", "Trip") }))),
});
