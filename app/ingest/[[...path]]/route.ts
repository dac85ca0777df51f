// ANY /ingest/* — the JSON 404 for every ingestion path no other route matches
import { notFoundRoute } from "@/lib/http/handler";

export const GET = notFoundRoute;
export const POST = notFoundRoute;
export const PUT = notFoundRoute;
export const PATCH = notFoundRoute;
export const DELETE = notFoundRoute;
