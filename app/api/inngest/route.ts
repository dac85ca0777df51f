// GET/POST/PUT /api/inngest — Inngest's serve endpoint for the workflows (used only when INNGEST_* is configured)
import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";
import { errorResponse, route, type RouteHandler } from "@/lib/http/handler";
import { jobsProvider } from "@/lib/jobs/config";

const served = serve({ client: inngest, functions });

// On the embedded runner nothing is served here: a clear 404 instead of the SDK's failure to find its keys.
const notServed: RouteHandler = async () =>
  errorResponse(
    "not_found",
    "Inngest is not configured on this server: the embedded runner runs the workflows. Set INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY (or INNGEST_DEV) to serve them here.",
    404,
  );

const pick = (method: "GET" | "POST" | "PUT"): RouteHandler => (req, ctx) =>
  jobsProvider() === "embedded" ? notServed(req, ctx) : (served[method] as RouteHandler)(req, ctx);

export const { GET, POST, PUT, PATCH, DELETE } = route({ GET: pick("GET"), POST: pick("POST"), PUT: pick("PUT") });
