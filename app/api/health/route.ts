// GET /api/health — liveness and database reachability, for load balancers and orchestrators (no key needed). The app
// server answers GET itself (lib/server/lean-path.ts) with the same healthResponse; this route serves `next dev`, HEAD
// and the other methods.
import { healthResponse } from "@/lib/http/health";
import { route } from "@/lib/http/handler";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = route({ GET: healthResponse });
