// GET /api/health — liveness and database reachability, for load balancers and orchestrators (no key needed)
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { json } from "@/lib/http/handler";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    const db = await getDb();
    await db.execute(sql`select 1`);
    return json({ status: "ok" });
  } catch (err) {
    console.error("[health] database unavailable:", err);
    return json({ status: "unavailable" }, 503);
  }
}
