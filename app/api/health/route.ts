// GET /api/health — liveness and database reachability, for load balancers and orchestrators (no key needed)
import { pingDatabase } from "@/lib/db/health";
import { json } from "@/lib/http/handler";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    await pingDatabase();
    return json({ status: "ok" });
  } catch (err) {
    console.error("[health] database unavailable:", err);
    return json({ status: "unavailable" }, 503);
  }
}
