// GET /api/health — liveness and database reachability, for load balancers and orchestrators (no key needed)
import { pingDatabase } from "@/lib/db/health";
import { json, route } from "@/lib/http/handler";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = route({ GET: health });

async function health() {
  try {
    await pingDatabase();
    return json({ status: "ok" });
  } catch (err) {
    console.error("[health] database unavailable:", err);
    return json({ status: "unavailable" }, 503);
  }
}
