// GET /api/v1/reports/summary — a trackable's distance, moving and stopped time per local day
import { parseQuery } from "@/lib/http/body";
import { json, route, withApiKey } from "@/lib/http/handler";
import { SummaryQuery } from "@/lib/motion/schemas";
import { summarize } from "@/lib/motion/summary";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApiKey(async ({ req, ctx }) => json(await summarize({ ctx, query: parseQuery(req, SummaryQuery) }))),
});
