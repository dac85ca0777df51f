// GET /api/v1/stream — the live event stream (Server-Sent Events); the app server answers it before Next.js does
import { route } from "@/lib/http/handler";
import { streamResponse } from "@/lib/stream/web";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: (req) => streamResponse(req),
});
