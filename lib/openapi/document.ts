import "zod-openapi";
import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from "zod-openapi";
import { ErrorBody, type ErrorCode } from "@/lib/http/errors";
import { LocationHistoryQuery, LocationList, LocationPage, Location, PostLocationsInput } from "@/lib/locations/schemas";
import { CreateTrackableInput, Trackable, TrackableListQuery, TrackablePage, UpdateTrackableInput } from "@/lib/trackables/schemas";

// The OpenAPI 3.1 document, generated from the same zod schemas the handlers validate with (never written by hand).

const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  invalid_request: "Bad request: the message names every offending parameter or field",
  unauthorized: "Missing, malformed, unknown or revoked API key",
  plan_required: "The feature requires the enterprise plan",
  not_found: "No such object in this account (another account's objects are indistinguishable from missing ones)",
  method_not_allowed: "Method not allowed on this path",
  conflict: "Conflict with the current state of the object",
  payload_too_large: "Request body over 1 MiB",
  rate_limit_exceeded: "More than the per-key limit of requests per rolling minute; see Retry-After",
  internal_error: "Server error (never a stack trace); retry later",
};
const STATUS: Record<ErrorCode, `4${string}` | `5${string}`> = {
  invalid_request: "400",
  unauthorized: "401",
  plan_required: "403",
  not_found: "404",
  method_not_allowed: "405",
  conflict: "409",
  payload_too_large: "413",
  rate_limit_exceeded: "429",
  internal_error: "500",
};

const rateLimitHeaders = z.object({
  "X-RateLimit-Limit": z.string().meta({ description: "Requests allowed per rolling minute for this key", example: "100" }),
  "X-RateLimit-Remaining": z.string().meta({ description: "Requests left in the current window", example: "99" }),
  "X-RateLimit-Reset": z.string().meta({ description: "Unix time (seconds) at which the window resets", example: "1795332000" }),
});

const errorResponse = (code: ErrorCode) => ({
  description: ERROR_DESCRIPTIONS[code],
  headers: code === "rate_limit_exceeded"
    ? rateLimitHeaders.extend({ "Retry-After": z.string().meta({ description: "Seconds to wait before retrying", example: "12" }) })
    : undefined,
  content: { "application/json": { schema: ErrorBody } },
});

const COMMON_ERRORS: ErrorCode[] = ["unauthorized", "rate_limit_exceeded", "internal_error"];

interface Op {
  id: string;
  summary: string;
  description?: string;
  tag: string;
  path?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  ok: { status: "200" | "201" | "202" | "204"; schema?: z.ZodType; description: string };
  errors?: ErrorCode[];
  withBody?: boolean;
}

function op(o: Op): ZodOpenApiOperationObject {
  const errors = new Set<ErrorCode>([...(o.errors ?? []), ...COMMON_ERRORS]);
  if (o.body) {
    errors.add("invalid_request");
    errors.add("payload_too_large");
  }
  if (o.query) errors.add("invalid_request");
  const responses: ZodOpenApiResponsesObject = {
    [o.ok.status]: {
      description: o.ok.description,
      headers: rateLimitHeaders,
      ...(o.ok.schema ? { content: { "application/json": { schema: o.ok.schema } } } : {}),
    },
  };
  for (const code of [...errors].sort((a, b) => STATUS[a].localeCompare(STATUS[b]))) responses[STATUS[code]] = errorResponse(code);
  return {
    operationId: o.id,
    summary: o.summary,
    description: o.description,
    tags: [o.tag],
    requestParams: { ...(o.path ? { path: o.path } : {}), ...(o.query ? { query: o.query } : {}) },
    ...(o.body ? { requestBody: { required: true, content: { "application/json": { schema: o.body } } } } : {}),
    responses,
  };
}

const trackableIdPath = z.object({
  trackableId: z.uuid().meta({ description: "The trackable's id (a blank value is 400 \"Missing required parameter: trackableId\")" }),
});

const paths: ZodOpenApiPathsObject = {
  "/trackables": {
    get: op({
      id: "listTrackables",
      tag: "Trackables",
      summary: "List trackables",
      description: "Newest first. Each item carries its most recent location (`lastLocation`).",
      query: TrackableListQuery,
      ok: { status: "200", schema: TrackablePage, description: "A page of trackables" },
    }),
    post: op({
      id: "createTrackable",
      tag: "Trackables",
      summary: "Create a trackable",
      body: CreateTrackableInput,
      ok: { status: "201", schema: Trackable, description: "The new trackable" },
    }),
  },
  "/trackables/{trackableId}": {
    get: op({
      id: "getTrackable",
      tag: "Trackables",
      summary: "Retrieve a trackable",
      path: trackableIdPath,
      ok: { status: "200", schema: Trackable, description: "The trackable" },
      errors: ["invalid_request", "not_found"],
    }),
    patch: op({
      id: "updateTrackable",
      tag: "Trackables",
      summary: "Update a trackable",
      description: "Only the fields sent change. `metadata` replaces the whole object.",
      path: trackableIdPath,
      body: UpdateTrackableInput,
      ok: { status: "200", schema: Trackable, description: "The updated trackable" },
      errors: ["not_found"],
    }),
    delete: op({
      id: "deleteTrackable",
      tag: "Trackables",
      summary: "Delete a trackable",
      description: "Deletes the trackable with its location history and geofence assignments.",
      path: trackableIdPath,
      ok: { status: "204", description: "Deleted" },
      errors: ["invalid_request", "not_found"],
    }),
  },
  "/trackables/{trackableId}/locations": {
    get: op({
      id: "listLocations",
      tag: "Locations",
      summary: "Location history of a trackable",
      description:
        "Newest first unless `order=asc`. With no parameters the first element is the most recent location. " +
        "`from` and `to` are inclusive.",
      path: trackableIdPath,
      query: LocationHistoryQuery,
      ok: { status: "200", schema: LocationPage, description: "A page of locations" },
      errors: ["not_found"],
    }),
    post: op({
      id: "createLocations",
      tag: "Locations",
      summary: "Report one location or a batch",
      description:
        'Send one location object, or `{"locations": [...]}` with 1–1000 of them (stored in one insert). ' +
        "`timestamp` defaults to the time received and may be at most 5 minutes in the future. " +
        "Geofence evaluation follows asynchronously.",
      path: trackableIdPath,
      body: PostLocationsInput,
      ok: { status: "201", schema: LocationList, description: "The stored locations, in input order" },
      errors: ["not_found"],
    }),
  },
  "/trackables/{trackableId}/locations/latest": {
    get: op({
      id: "getLatestLocation",
      tag: "Locations",
      summary: "Latest location of a trackable",
      path: trackableIdPath,
      ok: { status: "200", schema: Location, description: "The most recent location by timestamp" },
      errors: ["invalid_request", "not_found"],
    }),
  },
};

const DESCRIPTION = `
The Fenceline REST API: trackables report locations, geofences turn them into entry and exit events, and webhooks
deliver those events, signed, to your server.

**Authentication.** Send \`Authorization: Bearer <API_KEY>\` on every request. Keys are created in the dashboard or
with \`npm run apikey:create\`, shown once, and can be revoked.

**Rate limit.** 100 requests per rolling minute per key (configurable). Every authenticated response carries
\`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; over the limit you get 429 with \`Retry-After\`.

**Conventions.** JSON in and out; bodies up to 1 MiB. Ids are UUIDs, timestamps ISO 8601 UTC with milliseconds,
coordinates WGS84 decimal degrees, distances in metres. Lists take \`limit\` and an opaque \`cursor\` and answer
\`{"data": [...], "nextCursor": "..." | null}\`. Unknown query parameters are ignored; unknown body fields are
rejected. Errors are \`{"error": {"code", "message"}}\`.
`.trim();

let cached: ReturnType<typeof createDocument> | undefined;

export function openApiDocument(serverUrl = "/api/v1") {
  cached ??= createDocument({
    openapi: "3.1.0",
    info: { title: "Fenceline API", version: "1.0.0", description: DESCRIPTION },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "Trackables", description: "Tracked devices (called `beacon` in webhook payloads)" },
      { name: "Locations", description: "Positions reported by trackables" },
    ],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "An API key: fl_…" } },
    },
  });
  return cached;
}
