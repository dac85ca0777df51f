// ANY /api/* — the JSON 404 for every API path no other route matches (outside /api/v1 and /api/public too)
import { notFoundRoute } from "@/lib/http/handler";

export const GET = notFoundRoute;
export const POST = notFoundRoute;
export const PUT = notFoundRoute;
export const PATCH = notFoundRoute;
export const DELETE = notFoundRoute;
