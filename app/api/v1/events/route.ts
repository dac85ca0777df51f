// GET /api/v1/events — the event log, newest first by occurredAt, with filters
import { listEvents } from "@/lib/events/events";
import { EventListQuery } from "@/lib/events/schemas";
import { parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx }) => json(await listEvents({ ctx, query: parseQuery(req, EventListQuery) }))),
});
