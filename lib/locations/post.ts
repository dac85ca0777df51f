// POST /api/v1/trackables/{trackableId}/locations: the one handler both the Next.js route and the app server's lean path
// (lib/server/lean-path.ts) call, so the two cannot answer differently.
import { readJsonObject, type RequestLike } from "@/lib/http/body";
import { json, withApiKey } from "@/lib/http/handler";
import { pathId } from "@/lib/http/params";
import { ingestLocations } from "./locations";
import { parsePostLocations } from "./schemas";

export const postLocations = withApiKey<RequestLike>(async ({ req, ctx, params }) => {
  const trackableId = pathId(params, "trackableId", "Trackable");
  const inputs = parsePostLocations(await readJsonObject(req));
  return json({ data: await ingestLocations({ ctx, trackableId, inputs }) }, 201);
});
