// GET / PATCH / DELETE /api/v1/trackables/{trackableId} — read, update or delete one trackable
import { parseBody } from "@/lib/http/body";
import { json, noContent, route, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { UpdateTrackableInput } from "@/lib/trackables/schemas";
import { deleteTrackable, getTrackable, updateTrackable } from "@/lib/trackables/trackables";

const trackableId = (params: Record<string, string | string[] | undefined>) => pathId(params, "trackableId", "Trackable");

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ ctx, params }) => json(await getTrackable({ ctx, id: trackableId(params) }))),
  PATCH: withApiKey(async ({ req, ctx, params }) => {
    const id = trackableId(params);
    return json(await updateTrackable({ ctx, id, input: await parseBody(req, UpdateTrackableInput) }));
  }),
  DELETE: withApiKey(async ({ ctx, params }) => {
    await deleteTrackable({ ctx, id: trackableId(params) });
    return noContent();
  }),
});
