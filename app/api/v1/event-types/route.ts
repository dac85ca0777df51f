// GET /api/v1/event-types — every event type, with its label, description and whether the events log keeps it
import { listEventTypes } from "@/lib/events/event-types";
import { json, route, withApiKey } from "@/lib/http/handler";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async () => json(listEventTypes())),
});
