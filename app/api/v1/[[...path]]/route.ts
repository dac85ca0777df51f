// ANY /api/v1/* — the JSON 404 for every path no other route matches
import { notFoundRoute } from "@/lib/http/handler";

export const GET = notFoundRoute;
export const POST = notFoundRoute;
export const PUT = notFoundRoute;
export const PATCH = notFoundRoute;
export const DELETE = notFoundRoute;
export const OPTIONS = notFoundRoute;
