// GET /api/internal/stream — what the dashboard's live pages listen to: a notice when what they show changed (session auth)
import { route } from "@/lib/http/handler";
import { withSession } from "@/lib/http/session";
import { dashboardStream } from "@/lib/stream/dashboard";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withSession(({ req, ctx, userId }) => dashboardStream({ req, ctx, userId }), { permission: "workspace.read" }),
});
