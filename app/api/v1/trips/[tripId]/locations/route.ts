// GET /api/v1/trips/{tripId}/locations — a trip's track as JSON pages, GPX or GeoJSON
import { parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { TripLocationsQuery } from "@/lib/motion/schemas";
import { tripLocations } from "@/lib/motion/trips";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx, params }) => {
    const result = await tripLocations({ ctx, id: pathId(params, "tripId", "Trip"), query: parseQuery(req, TripLocationsQuery) });
    return result instanceof Response ? result : json(result);
  }),
});
