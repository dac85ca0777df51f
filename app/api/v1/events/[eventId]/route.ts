// GET /api/v1/events/{eventId} — one recorded event
import { getEvent } from "@/lib/events/events";
import { json, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ ctx, params }) => json(await getEvent({ ctx, id: pathId(params, "eventId", "Event") }))),
});
