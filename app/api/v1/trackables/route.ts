// GET /api/v1/trackables — list trackables · POST /api/v1/trackables — create a trackable
import { parseBody, parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { CreateTrackableInput, TrackableListQuery } from "@/lib/trackables/schemas";
import { createTrackable, listTrackables } from "@/lib/trackables/trackables";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx }) => json(await listTrackables({ ctx, query: parseQuery(req, TrackableListQuery) }))),
  POST: withApiKey(async ({ req, ctx }) =>
    json(await createTrackable({ ctx, input: await parseBody(req, CreateTrackableInput) }), 201),
  ),
});
