import "zod-openapi";
import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiContentObject,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from "zod-openapi";
import { ErrorBody, type ErrorCode } from "@/lib/http/errors";
import {
  CSV_COLUMNS,
  GPX_EXTENSIONS_NS,
  LocationExportQuery, LocationHistoryQuery, LocationList, LocationPage, Location, MAX_EXPORT_POINTS, PostLocationsInput } from "@/lib/locations/schemas";
import {
  CreateGeofenceInput,
  Geofence,
  GeofenceListQuery,
  GeofencePage,
  OccupancyQuery,
  OccupantPage,
  TrackableGeofencePage,
  UpdateGeofenceInput,
} from "@/lib/geofences/schemas";
import { AuditLogPage, AuditLogQuery } from "@/lib/audit/schemas";
import { Event, EventListQuery, EventPage, EventTypeList } from "@/lib/events/schemas";
import { StopListQuery, StopPage, Summary, SummaryQuery, Trip, TripListQuery, TripLocationsQuery, TripPage } from "@/lib/motion/schemas";
import { EVENTS, type EventRegistry } from "@/lib/events/registry";
import { Import, ImportQuery } from "@/lib/imports/schemas";
import { DeliveryHeaders, webhookPayloads } from "@/lib/webhooks/payload-schemas";
import {
  CreateWebhookInput,
  EndpointTestInput,
  RecoverInput,
  RecoverResult,
  RotatedSecret,
  RotateSecretInput,
  UpdateWebhookInput,
  Webhook,
  WebhookListQuery,
  WebhookPage,
} from "@/lib/webhooks/schemas";
import { Delivery, DeliveryListQuery, DeliveryPage, TestWebhookInput, TestWebhookResult } from "@/lib/webhooks/delivery-schemas";
import { CreateShareLinkInput, ShareLink, ShareLinkListQuery, ShareLinkPage } from "@/lib/share-links/schemas";
import { CreateDeviceTokenInput, CreatedDeviceToken, DeviceTokenListQuery, DeviceTokenPage } from "@/lib/devices/schemas";
import {
  CreateNotificationRuleInput,
  NotificationDeliveryListQuery,
  NotificationDeliveryPage,
  NotificationRule,
  NotificationRuleListQuery,
  NotificationRulePage,
  UpdateNotificationRuleInput,
} from "@/lib/notifications/rule-schemas";
import { Account, PatchAccountInput } from "@/lib/accounts/schemas";
import { AccountExport, EXPORT_RESOURCES } from "@/lib/exports/schemas";
import { CreatePrivacyZoneInput, PrivacyZone, PrivacyZoneListQuery, PrivacyZonePage, UpdatePrivacyZoneInput } from "@/lib/privacy-zones/schemas";
import { ChannelTestResult, CreateNotificationChannelInput, NotificationChannel, NotificationChannelListQuery, NotificationChannelPage, UpdateNotificationChannelInput } from "@/lib/notifications/schemas";
import { requiredScope } from "@/lib/api-keys/scopes";
import { StreamQuery, StreamToken, StreamTokenInput } from "@/lib/stream/schemas";
import { CreateTrackableInput, Trackable, TrackableListQuery, TrackablePage, UpdateTrackableInput } from "@/lib/trackables/schemas";

// The OpenAPI 3.1 document, generated from the same zod schemas the handlers validate with (never written by hand).

const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  invalid_request: "Bad request: the message names every offending parameter or field",
  unauthorized: "Missing, malformed, unknown or revoked API key",
  plan_required: "The feature requires the enterprise plan",
  insufficient_scope: "The API key's scopes do not include the one this operation needs (`x-required-scope`); the error's `scope` names it",
  forbidden: "The signed-in dashboard user's role in the workspace lacks the permission (the dashboard's own routes only)",
  not_found: "No such object in this account (another account's objects are indistinguishable from missing ones)",
  method_not_allowed: "Method not allowed on this path",
  conflict: "Conflict with the current state of the object",
  cursor_expired: "The resume cursor is older than the events log holds (retention): reconnect without it",
  payload_too_large: "Request body over 1 MiB",
  unsupported_media_type: "The request has a body whose Content-Type is not application/json (a +json type or a charset parameter is fine)",
  idempotency_key_reused: "The Idempotency-Key was already used with another request (method, path or body) in the last 24 hours",
  rate_limit_exceeded:
    "More than the per-key limit of requests per rolling minute, or too many requests with invalid keys from this client address; see Retry-After",
  internal_error: "Server error (never a stack trace); retry later",
};
const STATUS: Record<ErrorCode, `4${string}` | `5${string}`> = {
  invalid_request: "400",
  unauthorized: "401",
  plan_required: "403",
  insufficient_scope: "403",
  forbidden: "403",
  not_found: "404",
  method_not_allowed: "405",
  conflict: "409",
  cursor_expired: "410",
  payload_too_large: "413",
  unsupported_media_type: "415",
  idempotency_key_reused: "422",
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

const COMMON_ERRORS: ErrorCode[] = ["unauthorized", "insufficient_scope", "rate_limit_exceeded", "internal_error"];

interface Op {
  id: string;
  summary: string;
  description?: string;
  tag: string;
  path?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  ok: {
    status: "200" | "201" | "202" | "204";
    schema?: z.ZodType;
    description: string;
    /** A response that is not JSON (a download): its media types instead of the JSON schema. */
    content?: ZodOpenApiContentObject;
    headers?: z.ZodObject;
  };
  errors?: ErrorCode[];
  withBody?: boolean;
  /** The body may be left out (every field has a default). */
  optionalBody?: boolean;
}

function op(o: Op): ZodOpenApiOperationObject {
  const errors = new Set<ErrorCode>([...(o.errors ?? []), ...COMMON_ERRORS]);
  if (o.body) {
    errors.add("invalid_request");
    errors.add("payload_too_large");
    errors.add("unsupported_media_type");
  }
  if (o.query) errors.add("invalid_request");
  const responses: ZodOpenApiResponsesObject = {
    [o.ok.status]: {
      description: o.ok.description,
      headers: o.ok.headers ? rateLimitHeaders.extend(o.ok.headers.shape) : rateLimitHeaders,
      ...(o.ok.content ? { content: o.ok.content } : o.ok.schema ? { content: { "application/json": { schema: o.ok.schema } } } : {}),
    },
  };
  for (const code of [...errors].sort((a, b) => STATUS[a].localeCompare(STATUS[b]))) {
    // Two codes may share a status (403: plan_required, insufficient_scope): one response names both.
    const earlier = responses[STATUS[code]];
    responses[STATUS[code]] = earlier
      ? { ...errorResponse(code), description: `${earlier.description}; or: ${ERROR_DESCRIPTIONS[code]}` }
      : errorResponse(code);
  }
  return {
    operationId: o.id,
    summary: o.summary,
    description: o.description,
    tags: [o.tag],
    requestParams: { ...(o.path ? { path: o.path } : {}), ...(o.query ? { query: o.query } : {}) },
    ...(o.body ? { requestBody: { required: !o.optionalBody, content: { "application/json": { schema: o.body } } } } : {}),
    responses,
  };
}

// Every POST takes an Idempotency-Key (lib/idempotency/idempotency.ts): the header, its 409 and 422, and the replay's
// header on the success response.
const IdempotencyHeader = z.object({
  "Idempotency-Key": z.string().min(1).max(255).optional().meta({
    description:
      "Makes the POST safe to retry: the same key with the same body within 24 hours replays the first response " +
      "(status and body, with `Idempotent-Replayed: true`) instead of running again; with another body 422 " +
      "`idempotency_key_reused`; while the first request still runs 409 `conflict`. Keys are per account; 1–255 visible ASCII characters.",
    example: "8e03978e-40d5-43e8-bc93-6894a57f9324",
  }),
});

function withIdempotencyKeys(all: ZodOpenApiPathsObject): ZodOpenApiPathsObject {
  for (const item of Object.values(all)) {
    const post = item?.post;
    if (!post) continue;
    post.requestParams = { ...post.requestParams, header: IdempotencyHeader };
    const responses = post.responses ?? {};
    for (const code of ["conflict", "idempotency_key_reused"] as const) responses[STATUS[code]] ??= errorResponse(code);
    post.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
  }
  return all;
}

const trackableIdPath = z.object({
  trackableId: z.uuid().meta({ description: "The trackable's id (a blank value is 400 \"Missing required parameter: trackableId\")" }),
});

const deviceTokenPath = trackableIdPath.extend({
  tokenId: z.uuid().meta({ description: "The device token's id (not the token)" }),
});
const geofenceIdPath = z.object({ geofence_id: z.uuid().meta({ description: "The geofence's id" }) });
const deliveryIdPath = z.object({ deliveryId: z.uuid().meta({ description: "The delivery's id (X-Service-Delivery)" }) });
const webhookIdPath = z.object({ webhookId: z.uuid().meta({ description: "The webhook endpoint's id" }) });
const eventIdPath = z.object({ eventId: z.uuid().meta({ description: "The event's id (a Delivery's eventId)" }) });
const shareLinkIdPath = z.object({ shareLinkId: z.uuid().meta({ description: "The share link's id" }) });
const exportIdPath = z.object({ exportId: z.uuid().meta({ description: "The export's id" }) });
const zoneIdPath = z.object({ zoneId: z.uuid().meta({ description: "The privacy zone's id" }) });
const tripIdPath = z.object({ tripId: z.uuid().meta({ description: "The trip's id" }) });
const channelIdPath = z.object({ channelId: z.uuid().meta({ description: "The notification channel's id" }) });
const ruleIdPath = z.object({ ruleId: z.uuid().meta({ description: "The notification rule's id" }) });
const ENTERPRISE = "Requires the enterprise plan (403 `plan_required` otherwise).";
const ROTATE =
  "The new secret (the one given, or `whsec_` + base64 of 32 random bytes) signs from now on; the current one keeps " +
  "signing beside it for `expireCurrentIn` seconds (default one day): `webhook-signature` then carries both " +
  "signatures, `X-Service-Signature` only the new one's. The secret is shown this once. " +
  ENTERPRISE;
const RECOVER =
  "Every delivery to this target that ended `failed` and was created at or after `since` (tests excluded) is sent " +
  "again, oldest first, as a new delivery with the same payload, to the target's current URL and secret.";

const deliveryWebhook = (event: string, summary: string, payload: z.ZodType) => ({
  post: {
    operationId: `${event.replace(/[._]([a-z])/g, (_m, c: string) => c.toUpperCase())}Webhook`,
    summary,
    description:
      "Sent to the geofence's webhook (geofence.* only) and to every enabled account endpoint subscribed to the kind. " +
      "Verify the signature over the raw body; answer 2xx to acknowledge; 429/503 with Retry-After delays the retry " +
      "(at most an hour); 410 ends the delivery and switches an account endpoint off.",
    tags: ["Webhook events"],
    requestParams: { header: DeliveryHeaders },
    requestBody: { required: true, content: { "application/json": { schema: payload } } },
    responses: {
      "2XX": { description: "Acknowledged: the delivery succeeded" },
      "410": { description: "Gone: the delivery ends; an account endpoint is switched off" },
      "429": { description: "Busy: retried no earlier than Retry-After (seconds or an HTTP date, at most an hour)" },
      default: { description: "Any other answer, a time-out or a connection error: retried per WEBHOOK_RETRY_DELAYS" },
    },
  },
});

/** The `webhooks` section: each event type a webhook can receive, with its declared payload schema. */
export function webhookOperations(registry: EventRegistry = EVENTS) {
  const payloads = webhookPayloads(registry);
  return Object.fromEntries(
    registry.deliverable.map((type) => [type, deliveryWebhook(type, registry.get(type)!.description, payloads[type]!)]),
  );
}

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
        "`timestamp` defaults to the time received, must be after 1970-01-01T00:00:00Z (the time of a clock that was " +
        "never set) and may be at most 5 minutes in the future; anything else is 400. A `heading` of 360 (a course " +
        "rounded up to whole degrees) is stored as 0. " +
        "Geofence evaluation follows asynchronously.",
      path: trackableIdPath,
      body: PostLocationsInput,
      ok: { status: "201", schema: LocationList, description: "The stored locations, in input order" },
      errors: ["not_found"],
    }),
  },
  "/trackables/{trackableId}/locations/export": {
    get: op({
      id: "exportLocations",
      tag: "Locations",
      summary: "Export a trackable's location history",
      description:
        "The locations between the inclusive `from` and `to` (the whole history without them), oldest first, as a " +
        "download in one of three formats, streamed as it is read. `gpx`: a GPX 1.1 document with one track segment; " +
        "each `trkpt` has `ele` (altitude) and `time`, and `accuracy`, `speed`, `heading` and `battery` in its " +
        "`extensions` (namespace `" + GPX_EXTENSIONS_NS + "`, prefix `fl`). `geojson`: a FeatureCollection of Point features " +
        "(`[longitude, latitude]`, or with altitude as a third value), the location's id as the feature's `id`, every " +
        "other field in `properties`. `csv`: RFC 4180 with a header row (`" + CSV_COLUMNS.join(",") + "`), CRLF line " +
        "ends, empty cells for values not reported. " +
        `An export holds at most ${MAX_EXPORT_POINTS.toLocaleString("en")} locations: a range with more is refused with 400 ` +
        "`invalid_request` before anything is sent (narrow it with `from`/`to` and export it in parts), never cut short. " +
        "Counts as one request against the rate limit. `Content-Disposition` names the file.",
      path: trackableIdPath,
      query: LocationExportQuery,
      ok: {
        status: "200",
        description: "The export, as an attachment",
        headers: z.object({
          "Content-Disposition": z.string().meta({ description: "attachment, with the file's name", example: 'attachment; filename="van-12.gpx"' }),
        }),
        content: {
          "application/gpx+xml": { schema: z.string().meta({ description: "format=gpx: a GPX 1.1 document" }) },
          "application/geo+json": { schema: z.string().meta({ description: "format=geojson: a GeoJSON FeatureCollection of Points" }) },
          "text/csv": { schema: z.string().meta({ description: "format=csv: a header row, then one row per location" }) },
        },
      },
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
  "/trackables/{trackableId}/device-tokens": {
    get: op({
      id: "listDeviceTokens",
      tag: "Devices",
      summary: "List a trackable's device tokens",
      description: "Newest first, without the tokens themselves (`prefix` shows their first characters).",
      path: trackableIdPath,
      query: DeviceTokenListQuery,
      ok: { status: "200", schema: DeviceTokenPage, description: "A page of device tokens" },
      errors: ["not_found"],
    }),
    post: op({
      id: "createDeviceToken",
      tag: "Devices",
      summary: "Create a device token",
      description:
        "A credential a tracking app uses to post this trackable's locations to `/ingest/…`, and nothing else: it is " +
        "never accepted by `/api/v1`, and an API key is never accepted by `/ingest`. The token is in this response " +
        "only; Fenceline keeps its SHA-256. Send `{}` for a token without a name.",
      path: trackableIdPath,
      body: CreateDeviceTokenInput,
      ok: { status: "201", schema: CreatedDeviceToken, description: "The new token, shown once" },
      errors: ["not_found"],
    }),
  },
  "/trackables/{trackableId}/device-tokens/{tokenId}": {
    delete: op({
      id: "revokeDeviceToken",
      tag: "Devices",
      summary: "Revoke a device token",
      description: "Deletes the token: the next request that presents it is a 401, on every server at once.",
      path: deviceTokenPath,
      ok: { status: "204", description: "Revoked" },
      errors: ["invalid_request", "not_found"],
    }),
  },
  "/geofences": {
    get: op({
      id: "listGeofences",
      tag: "Geofences",
      summary: "List geofences",
      description: "Newest first. `trackableId` keeps the geofences that apply to that trackable (including those for every trackable).",
      query: GeofenceListQuery,
      ok: { status: "200", schema: GeofencePage, description: "A page of geofences" },
    }),
    post: op({
      id: "createGeofence",
      tag: "Geofences",
      summary: "Create a geofence",
      description:
        "A circle (centre and radius in metres). `notificationType: \"webhook\"` with a `webhookUrl` sends signed " +
        "`geofence.entry`/`geofence.exit` deliveries (enterprise plan). The secret is write-only.",
      body: CreateGeofenceInput,
      ok: { status: "201", schema: Geofence, description: "The new geofence" },
      errors: ["plan_required"],
    }),
  },
  "/geofences/{geofence_id}": {
    get: op({
      id: "getGeofence",
      tag: "Geofences",
      summary: "Retrieve a geofence",
      path: geofenceIdPath,
      ok: { status: "200", schema: Geofence, description: "The geofence" },
      errors: ["invalid_request", "not_found"],
    }),
    patch: op({
      id: "updateGeofence",
      tag: "Geofences",
      summary: "Update a geofence",
      description: "Only the fields sent change; `webhookSecret: null` removes the secret, `trackableIds: null` applies it to every trackable. Takes effect from the next location.",
      path: geofenceIdPath,
      body: UpdateGeofenceInput,
      ok: { status: "200", schema: Geofence, description: "The updated geofence" },
      errors: ["not_found", "plan_required"],
    }),
    delete: op({
      id: "deleteGeofence",
      tag: "Geofences",
      summary: "Delete a geofence",
      description: "Emits nothing. Its delivery history is kept.",
      path: geofenceIdPath,
      ok: { status: "204", description: "Deleted" },
      errors: ["invalid_request", "not_found"],
    }),
  },
  "/geofences/{geofence_id}/test-webhook": {
    post: op({
      id: "testGeofenceWebhook",
      tag: "Webhook deliveries",
      summary: "Send a test webhook",
      description:
        "One attempt, no retries, recorded in the history as a test: the real geofence, a sample beacon and a location " +
        "at the centre. 200 with `success: false` (and no `deliveryId`) when the receiver did not answer 2xx. " +
        ENTERPRISE,
      path: geofenceIdPath,
      body: TestWebhookInput,
      optionalBody: true,
      ok: { status: "200", schema: TestWebhookResult, description: "The outcome of the attempt" },
      errors: ["not_found", "plan_required"],
    }),
  },
  "/geofences/{geofence_id}/rotate-secret": {
    post: op({
      id: "rotateGeofenceSecret",
      tag: "Geofences",
      summary: "Rotate the webhook signing secret",
      description: ROTATE,
      path: geofenceIdPath,
      body: RotateSecretInput,
      optionalBody: true,
      ok: { status: "200", schema: RotatedSecret, description: "The new secret, shown once" },
      errors: ["not_found", "plan_required"],
    }),
  },
  "/geofences/{geofence_id}/recover": {
    post: op({
      id: "recoverGeofenceDeliveries",
      tag: "Webhook deliveries",
      summary: "Recover failed deliveries of a geofence's webhook",
      description: `${RECOVER} Only the geofence's own webhook (not the account endpoints that also received its events); 400 when it has no webhookUrl. ${ENTERPRISE}`,
      path: geofenceIdPath,
      body: RecoverInput,
      ok: { status: "202", schema: RecoverResult, description: "How many deliveries were sent again" },
      errors: ["not_found", "plan_required"],
    }),
  },
  "/webhooks": {
    get: op({
      id: "listWebhooks",
      tag: "Webhooks",
      summary: "List webhook endpoints",
      description: ENTERPRISE,
      query: WebhookListQuery,
      ok: { status: "200", schema: WebhookPage, description: "A page of endpoints" },
      errors: ["plan_required"],
    }),
    post: op({
      id: "createWebhook",
      tag: "Webhooks",
      summary: "Create a webhook endpoint",
      description: `Receives the subscribed event kinds of every trackable and geofence of the account. ${ENTERPRISE}`,
      body: CreateWebhookInput,
      ok: { status: "201", schema: Webhook, description: "The new endpoint" },
      errors: ["plan_required"],
    }),
  },
  "/webhooks/{webhookId}": {
    get: op({ id: "getWebhook", tag: "Webhooks", summary: "Retrieve a webhook endpoint", description: ENTERPRISE, path: webhookIdPath, ok: { status: "200", schema: Webhook, description: "The endpoint" }, errors: ["invalid_request", "not_found", "plan_required"] }),
    patch: op({ id: "updateWebhook", tag: "Webhooks", summary: "Update a webhook endpoint", description: `Only the fields sent change; \`secret: null\` stops signing. ${ENTERPRISE}`, path: webhookIdPath, body: UpdateWebhookInput, ok: { status: "200", schema: Webhook, description: "The updated endpoint" }, errors: ["not_found", "plan_required"] }),
    delete: op({ id: "deleteWebhook", tag: "Webhooks", summary: "Delete a webhook endpoint", description: `Its delivery history is kept. ${ENTERPRISE}`, path: webhookIdPath, ok: { status: "204", description: "Deleted" }, errors: ["invalid_request", "not_found", "plan_required"] }),
  },
  "/webhooks/{webhookId}/rotate-secret": {
    post: op({
      id: "rotateWebhookSecret",
      tag: "Webhooks",
      summary: "Rotate the signing secret",
      description: ROTATE,
      path: webhookIdPath,
      body: RotateSecretInput,
      optionalBody: true,
      ok: { status: "200", schema: RotatedSecret, description: "The new secret, shown once" },
      errors: ["not_found", "plan_required"],
    }),
  },
  "/webhooks/{webhookId}/recover": {
    post: op({
      id: "recoverWebhookDeliveries",
      tag: "Webhook deliveries",
      summary: "Recover failed deliveries of an endpoint",
      description: `${RECOVER} ${ENTERPRISE}`,
      path: webhookIdPath,
      body: RecoverInput,
      ok: { status: "202", schema: RecoverResult, description: "How many deliveries were sent again" },
      errors: ["not_found", "plan_required"],
    }),
  },
  "/webhooks/{webhookId}/test": {
    post: op({
      id: "testWebhookEndpoint",
      tag: "Webhook deliveries",
      summary: "Send a test event to an endpoint",
      description:
        "One attempt of a sample `event` (default `location.updated`), no retries, recorded in the history as a test, " +
        "whether or not the endpoint is enabled or subscribed to that kind. Same answers as test-webhook. " +
        ENTERPRISE,
      path: webhookIdPath,
      body: EndpointTestInput,
      optionalBody: true,
      ok: { status: "200", schema: TestWebhookResult, description: "The outcome of the attempt" },
      errors: ["not_found", "plan_required"],
    }),
  },
  "/webhook-deliveries": {
    get: op({
      id: "listDeliveries",
      tag: "Webhook deliveries",
      summary: "List deliveries",
      description: `Newest first, each with its attempts. ${ENTERPRISE}`,
      query: DeliveryListQuery,
      ok: { status: "200", schema: DeliveryPage, description: "A page of deliveries" },
      errors: ["plan_required"],
    }),
  },
  "/webhook-deliveries/{deliveryId}": {
    get: op({
      id: "getDelivery",
      tag: "Webhook deliveries",
      summary: "Retrieve a delivery",
      description: `With every attempt: time, HTTP status, duration, error and the first 4096 bytes of the response. ${ENTERPRISE}`,
      path: deliveryIdPath,
      ok: { status: "200", schema: Delivery, description: "The delivery" },
      errors: ["invalid_request", "not_found", "plan_required"],
    }),
  },
  "/webhook-deliveries/{deliveryId}/redeliver": {
    post: op({
      id: "redeliver",
      tag: "Webhook deliveries",
      summary: "Redeliver",
      description: `Sends the same payload again as a new delivery (new id, its own retries). ${ENTERPRISE}`,
      path: deliveryIdPath,
      ok: { status: "202", schema: Delivery, description: "The new delivery, pending" },
      errors: ["invalid_request", "not_found", "plan_required"],
    }),
  },
  "/events": {
    get: op({
      id: "listEvents",
      tag: "Events",
      summary: "List events",
      description:
        "Every recorded event (each type `GET /event-types` lists with `recorded: true`), newest first by " +
        "`occurredAt` (then id), on every plan, whether or not anything was delivered. Filters combine; `from`/`to` " +
        "are inclusive bounds on `occurredAt`. A filter id that names nothing of this account gives an empty page.",
      query: EventListQuery,
      ok: { status: "200", schema: EventPage, description: "A page of events" },
    }),
  },
  "/event-types": {
    get: op({
      id: "listEventTypes",
      tag: "Events",
      summary: "List event types",
      description:
        "Every event type: its name (as in `Event.type`, webhook subscriptions and the payloads' `event`), a label, " +
        "what it means and whether the events log keeps it. The same list on every plan; not paged.",
      ok: { status: "200", schema: EventTypeList, description: "The event types" },
    }),
  },
  "/events/{eventId}": {
    get: op({
      id: "getEvent",
      tag: "Events",
      summary: "Retrieve an event",
      path: eventIdPath,
      ok: { status: "200", schema: Event, description: "The event" },
      errors: ["invalid_request", "not_found"],
    }),
  },
  "/stream": {
    get: ((o) => ({
      ...o,
      requestParams: {
        ...o.requestParams,
        header: z.object({
          "Last-Event-ID": z.string().optional().meta({ description: "Resume after this frame id (EventSource sends it on reconnecting); wins over `after`" }),
        }),
      },
    }))(
      op({
        id: "openStream",
        tag: "Events",
        summary: "Open a live event stream (Server-Sent Events)",
        description:
          "A `text/event-stream` reply that stays open: first `retry: 2000`, then one frame per event of the account " +
          "that matches the filters (`id: <cursor>`, `event: <type>`, `data: <the webhook payload plus \"id\">`), and " +
          "a `: keepalive` comment every 15 s. With `Last-Event-ID` (or `after`) the recorded events after that cursor " +
          "are replayed first, in order and once, then the stream goes on live with no gap and no duplicate; " +
          "`location.updated` frames are live only. Authenticate with the API key as Bearer, or with `access_token` " +
          "(a stream token, for EventSource). At most `STREAM_MAX_PER_KEY` (default 10) open streams per key; a " +
          "client that leaves 1 MiB unread is disconnected (it resumes with `Last-Event-ID`).",
        query: StreamQuery,
        ok: {
          status: "200",
          description: "The event stream (until the client or the server closes it)",
          content: { "text/event-stream": { schema: z.string().meta({ description: "Server-Sent Events frames", example: "retry: 2000\n\nid: eyJvY2N1cnJlZEF0Ijoi…\nevent: geofence.entry\ndata: {\"event\":\"geofence.entry\",…,\"id\":\"…\"}\n\n" }) } },
        },
        errors: ["invalid_request", "cursor_expired"],
      }),
    ),
  },
  "/stream-tokens": {
    post: op({
      id: "createStreamToken",
      tag: "Events",
      summary: "Create a stream token",
      description:
        "A short-lived token for `GET /stream?access_token=` (EventSource cannot send headers). It opens streams of " +
        "this key's account only, and every other route refuses it (401). It stops working when the key is revoked.",
      body: StreamTokenInput,
      optionalBody: true,
      ok: { status: "201", schema: StreamToken, description: "The token and when it expires" },
    }),
  },
  "/trips": {
    get: op({
      id: "listTrips",
      tag: "Trips and stops",
      summary: "List trips",
      description:
        "Trips newest first by `startedAt` (then id). `from`/`to` keep the trips that overlap the range (an ongoing " +
        "trip counts as not ended); `trackableId` one trackable's (404 when it is not one of the account's).",
      query: TripListQuery,
      ok: { status: "200", schema: TripPage, description: "A page of trips" },
      errors: ["not_found"],
    }),
  },
  "/trips/{tripId}": {
    get: op({
      id: "getTrip",
      tag: "Trips and stops",
      summary: "Retrieve a trip",
      path: tripIdPath,
      ok: { status: "200", schema: Trip, description: "The trip" },
      errors: ["invalid_request", "not_found"],
    }),
  },
  "/trips/{tripId}/locations": {
    get: op({
      id: "listTripLocations",
      tag: "Trips and stops",
      summary: "A trip's locations",
      description:
        "The trackable's locations from the trip's `startedAt` to its `endedAt` (its newest fix while ongoing), oldest " +
        "first: `json` a keyset page like `GET /trackables/{trackableId}/locations`; `gpx` and `geojson` downloads as " +
        "`GET /trackables/{trackableId}/locations/export` makes them.",
      path: tripIdPath,
      query: TripLocationsQuery,
      ok: {
        status: "200",
        description: "The locations",
        content: {
          "application/json": { schema: LocationPage },
          "application/gpx+xml": { schema: z.string().meta({ description: "format=gpx: a GPX 1.1 document" }) },
          "application/geo+json": { schema: z.string().meta({ description: "format=geojson: a GeoJSON FeatureCollection of Points" }) },
        },
      },
      errors: ["not_found"],
    }),
  },
  "/stops": {
    get: op({
      id: "listStops",
      tag: "Trips and stops",
      summary: "List stops",
      description: "Stops newest first by `startedAt`; filters as `GET /trips`.",
      query: StopListQuery,
      ok: { status: "200", schema: StopPage, description: "A page of stops" },
      errors: ["not_found"],
    }),
  },
  "/reports/summary": {
    get: op({
      id: "getSummary",
      tag: "Trips and stops",
      summary: "Daily summary",
      description:
        "A trackable's distance, time moving and stopped, trips started and top speed per local day of `timeZone` " +
        "(split at local midnight: days around a DST change have 23 or 25 hours), within `[from, to)` (at most " +
        "366 days).",
      query: SummaryQuery,
      ok: { status: "200", schema: Summary, description: "One entry per local day" },
      errors: ["not_found"],
    }),
  },
  "/geofences/{geofence_id}/occupants": {
    get: op({
      id: "listGeofenceOccupants",
      tag: "Geofences",
      summary: "List who is inside a geofence",
      description: "The trackables inside the geofence now, the latest arrival first. On every plan.",
      path: geofenceIdPath,
      query: OccupancyQuery,
      ok: { status: "200", schema: OccupantPage, description: "A page of occupants" },
      errors: ["invalid_request", "not_found"],
    }),
  },
  "/trackables/{trackableId}/geofences": {
    get: op({
      id: "listTrackableGeofences",
      tag: "Trackables",
      summary: "List the geofences a trackable is inside",
      description: "The geofences the trackable is inside now, the latest entry first. On every plan.",
      path: trackableIdPath,
      query: OccupancyQuery,
      ok: { status: "200", schema: TrackableGeofencePage, description: "A page of geofences" },
      errors: ["invalid_request", "not_found"],
    }),
  },
  "/share-links": {
    get: op({
      id: "listShareLinks",
      tag: "Share links",
      summary: "List share links",
      description:
        "Newest first, revoked and expired ones included unless `active` says otherwise. `trackableId` keeps one " +
        "trackable's links (400 when it is not one of the account's).",
      query: ShareLinkListQuery,
      ok: { status: "200", schema: ShareLinkPage, description: "A page of share links" },
    }),
    post: op({
      id: "createShareLink",
      tag: "Share links",
      summary: "Create a share link",
      description:
        "A public URL that shows the trackable's name and live position to whoever holds it, without signing in, " +
        "until it expires or is revoked. Give `expiresIn` (seconds, 60–2592000, default 86400) or `expiresAt` " +
        "(within the same bounds from now), not both. The token in `url` carries 256 random bits. Available on every plan.",
      body: CreateShareLinkInput,
      ok: { status: "201", schema: ShareLink, description: "The new share link" },
      errors: ["not_found"],
    }),
  },
  "/notification-channels": {
    get: op({
      id: "listNotificationChannels",
      tag: "Notification channels",
      summary: "List notification channels",
      description: "Newest first. Secrets are never returned (see `config`).",
      query: NotificationChannelListQuery,
      ok: { status: "200", schema: NotificationChannelPage, description: "A page of channels" },
    }),
    post: op({
      id: "createNotificationChannel",
      tag: "Notification channels",
      summary: "Create a notification channel",
      description:
        "`config` depends on `type`. Every URL obeys the webhooks' outbound rules (https, public hosts) unless the server " +
        "sets WEBHOOK_ALLOW_PRIVATE_URLS=true. An `email` channel needs outgoing mail on the server (SMTP_URL): 400 otherwise.",
      body: CreateNotificationChannelInput,
      ok: { status: "201", schema: NotificationChannel, description: "The new channel, without its secrets" },
    }),
  },
  "/notification-channels/{channelId}": {
    get: op({ id: "getNotificationChannel", tag: "Notification channels", summary: "Retrieve a notification channel", path: channelIdPath, ok: { status: "200", schema: NotificationChannel, description: "The channel" }, errors: ["invalid_request", "not_found"] }),
    patch: op({ id: "updateNotificationChannel", tag: "Notification channels", summary: "Update a notification channel", description: "Only the fields sent change; `config` is merged into the stored one (secrets left out are kept).", path: channelIdPath, body: UpdateNotificationChannelInput, ok: { status: "200", schema: NotificationChannel, description: "The updated channel" }, errors: ["not_found"] }),
    delete: op({ id: "deleteNotificationChannel", tag: "Notification channels", summary: "Delete a notification channel", path: channelIdPath, ok: { status: "204", description: "Deleted" }, errors: ["invalid_request", "not_found"] }),
  },
  "/notification-channels/{channelId}/test": {
    post: op({
      id: "testNotificationChannel",
      tag: "Notification channels",
      summary: "Send a test message through a channel",
      description: "One attempt now, no retries, whether or not the channel is enabled. A failure is still a 200: see `delivered` and `error`.",
      path: channelIdPath,
      ok: { status: "200", schema: ChannelTestResult, description: "How the attempt went" },
      errors: ["invalid_request", "not_found"],
    }),
  },
  "/notification-rules": {
    get: op({
      id: "listNotificationRules",
      tag: "Notification rules",
      summary: "List notification rules",
      description: "Newest first.",
      query: NotificationRuleListQuery,
      ok: { status: "200", schema: NotificationRulePage, description: "A page of rules" },
    }),
    post: op({
      id: "createNotificationRule",
      tag: "Notification rules",
      summary: "Create a notification rule",
      description:
        "Recorded events of `eventTypes` (of `trackableIds`, in `geofenceIds`; null: all) go to each of `channelIds`. " +
        "Trackables, geofences and channels must be the account's (400 naming the field otherwise); the schedule's zone " +
        "must be an IANA name; a template placeholder that is not documented is a 400 naming it.",
      body: CreateNotificationRuleInput,
      ok: { status: "201", schema: NotificationRule, description: "The new rule" },
    }),
  },
  "/notification-rules/{ruleId}": {
    get: op({ id: "getNotificationRule", tag: "Notification rules", summary: "Retrieve a notification rule", path: ruleIdPath, ok: { status: "200", schema: NotificationRule, description: "The rule" }, errors: ["invalid_request", "not_found"] }),
    patch: op({ id: "updateNotificationRule", tag: "Notification rules", summary: "Update a notification rule", description: "Only the fields sent change; null clears `trackableIds`, `geofenceIds`, `schedule` and `template`.", path: ruleIdPath, body: UpdateNotificationRuleInput, ok: { status: "200", schema: NotificationRule, description: "The updated rule" }, errors: ["not_found"] }),
    delete: op({ id: "deleteNotificationRule", tag: "Notification rules", summary: "Delete a notification rule", description: "Its deliveries stay in the log with `ruleId` null.", path: ruleIdPath, ok: { status: "204", description: "Deleted" }, errors: ["invalid_request", "not_found"] }),
  },
  "/notification-deliveries": {
    get: op({
      id: "listNotificationDeliveries",
      tag: "Notification rules",
      summary: "List notification deliveries",
      description:
        "The log, newest first: one entry per matched event, rule and channel — `pending`, `sent`, `failed`, or " +
        "`suppressed` with `reason` `schedule`, `cooldown` or `stale`. Sends are retried like webhooks (WEBHOOK_RETRY_DELAYS, " +
        "Retry-After honoured); a 4xx other than 408 and 429 is final. An event reaches a channel once, whatever number of rules route it there.",
      query: NotificationDeliveryListQuery,
      ok: { status: "200", schema: NotificationDeliveryPage, description: "A page of deliveries" },
    }),
  },
  "/share-links/{shareLinkId}": {
    get: op({
      id: "getShareLink",
      tag: "Share links",
      summary: "Retrieve a share link",
      description: "Revoked and expired links can still be read (see `revokedAt`, `expiresAt`).",
      path: shareLinkIdPath,
      ok: { status: "200", schema: ShareLink, description: "The share link" },
      errors: ["invalid_request", "not_found"],
    }),
    delete: op({
      id: "revokeShareLink",
      tag: "Share links",
      summary: "Revoke a share link",
      description:
        "From now on its page and public endpoint answer 404. The link itself stays readable with `revokedAt` set. " +
        "Revoking is one-way: revoking a link that is already revoked is a 409 `conflict` (not a silent 204), " +
        "whose message gives the time it was revoked. An expired link can be revoked.",
      path: shareLinkIdPath,
      ok: { status: "204", description: "Revoked" },
      errors: ["invalid_request", "not_found", "conflict"],
    }),
  },
  // History imports: the file is the request body (raw, or the file part of multipart/form-data), streamed to disk and
  // read in the background.
  "/trackables/{trackableId}/imports": {
    post: {
      ...op({
        id: "createImport",
        tag: "Locations",
        summary: "Import a history file",
        description:
          "Reads a GPX, GeoJSON, CSV (the export's columns), OwnTracks Recorder `.rec` or Google Takeout `Records.json` " +
          "file of up to 512 MB into the trackable's locations (source `import`), in batches of 1,000. " +
          "Send the file as the raw body (format from `?format=` or the Content-Type) or as the file field of a " +
          "`multipart/form-data` body (format from `?format=`, else the file name). Resends of stored locations are " +
          "dropped; invalid records are skipped and the first 20 reported by line (or array index). With `evaluate=false` " +
          "(the default) the history raises no geofence events and calls no webhooks. The upload is written to the server's " +
          "disk as it arrives (413 past 512 MB; 400 when the format cannot be told or the file's first bytes are not of " +
          "it), and the response comes as soon as it is received, with `status: \"running\"`: the server then reads the " +
          "file in the background, and `GET …/imports/{importId}` (the `Location` header) shows its progress and outcome. " +
          "A server that stops meanwhile reads the file on when it starts again, or ends the import as `failed`.",
        path: trackableIdPath,
        query: ImportQuery,
        ok: { status: "202", schema: Import, description: "The import, running: its file is read in the background", headers: z.object({ Location: z.string() }) },
        errors: ["invalid_request", "not_found", "payload_too_large"],
      }),
      requestBody: {
        required: true,
        content: {
          "multipart/form-data": { schema: z.object({ file: z.string().meta({ format: "binary" }) }) },
          "application/octet-stream": { schema: z.string().meta({ format: "binary" }) },
        },
      },
    },
  },
  "/trackables/{trackableId}/imports/{importId}": {
    get: op({
      id: "getImport",
      tag: "Locations",
      summary: "An import's progress",
      path: trackableIdPath.extend({ importId: z.uuid().meta({ description: "The import's id" }) }),
      ok: { status: "200", schema: Import, description: "The import" },
      errors: ["invalid_request", "not_found"],
    }),
  },
  // Data lifecycle: the account's retention, privacy zones.
  "/account": {
    get: op({ id: "getAccount", tag: "Account", summary: "Retrieve the account", description: "The workspace the API key belongs to, with its data retention.", ok: { status: "200", schema: Account, description: "The account" } }),
    patch: op({
      id: "updateAccount",
      tag: "Account",
      summary: "Update the account's name or retention",
      description:
        "Only the fields sent change. Each retention field is a number of days (≥ 1) or null (keep forever, the default). " +
        "A background job deletes older rows in small batches; each trackable's newest location is always kept.",
      body: PatchAccountInput,
      ok: { status: "200", schema: Account, description: "The updated account" },
    }),
  },
  "/audit-log": {
    get: op({
      id: "listAuditLog",
      tag: "Audit log",
      summary: "List audit log entries",
      description:
        "Every change to the workspace's configuration (API keys, trackables, geofences, device tokens, webhooks and " +
        "their secrets, notification channels and rules, share links, privacy zones, account settings), the dashboard " +
        "users' sign-ins, failed two-factor codes, password and two-factor changes, newest first by `occurredAt` (then " +
        "id). Each entry is written in the transaction of its change. Secrets never appear. Locations are not audited. " +
        "Filters combine; `from`/`to` are inclusive. Full-access keys only.",
      query: AuditLogQuery,
      ok: { status: "200", schema: AuditLogPage, description: "A page of audit log entries" },
    }),
  },
  // Workspace export: the request is recorded, and the zip is built from the database as it is downloaded.
  "/account/export": {
    post: op({
      id: "createAccountExport",
      tag: "Account",
      summary: "Export the workspace",
      description:
        "Records an export of everything in the workspace; it is `completed` at once, and its `downloadUrl` gives a zip " +
        "with one `<resource>.jsonl` per resource (" + EXPORT_RESOURCES.join(", ") + "), one JSON object a line in the " +
        "API's own shapes. Secrets and tokens are left out (webhook and geofence secrets, channel secrets, share-link and " +
        "device-token values). The zip is built from the data as it is when downloaded. Full-access keys only.",
      ok: { status: "202", schema: AccountExport, description: "The export", headers: z.object({ Location: z.string() }) },
    }),
  },
  "/account/exports/{exportId}": {
    get: op({ id: "getAccountExport", tag: "Account", summary: "Retrieve an export", path: exportIdPath, ok: { status: "200", schema: AccountExport, description: "The export" }, errors: ["invalid_request", "not_found"] }),
  },
  "/account/exports/{exportId}/download": {
    get: op({
      id: "downloadAccountExport",
      tag: "Account",
      summary: "Download an export",
      description: "The zip, streamed as it is written (Content-Disposition names the file). Each download reads the workspace anew.",
      path: exportIdPath,
      ok: {
        status: "200",
        description: "The zip, as an attachment",
        headers: z.object({ "Content-Disposition": z.string().meta({ example: 'attachment; filename="fenceline-export-2026-11-25.zip"' }) }),
        content: { "application/zip": { schema: z.string().meta({ format: "binary" }) } },
      },
      errors: ["invalid_request", "not_found"],
    }),
  },
  "/privacy-zones": {
    get: op({ id: "listPrivacyZones", tag: "Privacy zones", summary: "List privacy zones", description: "Newest first.", query: PrivacyZoneListQuery, ok: { status: "200", schema: PrivacyZonePage, description: "A page of privacy zones" } }),
    post: op({
      id: "createPrivacyZone",
      tag: "Privacy zones",
      summary: "Create a privacy zone",
      description:
        "A circle (radius ≥ 50 m) applied to every post of locations (API and devices) before it is stored: with `drop` a fix " +
        "inside is acknowledged but neither stored nor evaluated; with `blur` it is stored and evaluated at the centre, " +
        "with `accuracy` = the radius. `trackableIds` null: all of the account's trackables.",
      body: CreatePrivacyZoneInput,
      ok: { status: "201", schema: PrivacyZone, description: "The new privacy zone" },
    }),
  },
  "/privacy-zones/{zoneId}": {
    get: op({ id: "getPrivacyZone", tag: "Privacy zones", summary: "Retrieve a privacy zone", path: zoneIdPath, ok: { status: "200", schema: PrivacyZone, description: "The privacy zone" }, errors: ["invalid_request", "not_found"] }),
    patch: op({ id: "updatePrivacyZone", tag: "Privacy zones", summary: "Update a privacy zone", description: "Only the fields sent change.", path: zoneIdPath, body: UpdatePrivacyZoneInput, ok: { status: "200", schema: PrivacyZone, description: "The updated privacy zone" }, errors: ["not_found"] }),
    delete: op({ id: "deletePrivacyZone", tag: "Privacy zones", summary: "Delete a privacy zone", path: zoneIdPath, ok: { status: "204", description: "Deleted" }, errors: ["invalid_request", "not_found"] }),
  },
};

const DESCRIPTION = `
The Fenceline REST API: trackables report locations, geofences turn them into entry and exit events, and webhooks
deliver those events, signed, to your server.

**Authentication.** Send \`Authorization: Bearer <API_KEY>\` on every request. Keys are created in the dashboard or
with \`npm run apikey:create\`, shown once, and can be revoked.

**Rate limit.** 100 requests per rolling minute per key (configurable). Every authenticated response carries
\`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; over the limit you get 429 with \`Retry-After\`.
Failed authentications are limited per client address too (30 a minute, configurable): past that, every request that
presents a key from that address gets 429 with \`Retry-After\`, whether the key is valid or not, until the minute has
rolled on.

**Dates.** Date-times must lie within years 0001–9999 (UTC); outside, 400 \`invalid_request\`. A path that is not valid
percent-encoded UTF-8 is a 400 as well.

**Conventions.** JSON in and out; bodies up to 1 MiB. Ids are UUIDs, timestamps ISO 8601 UTC with milliseconds,
coordinates WGS84 decimal degrees, distances in metres. Lists take \`limit\` and an opaque \`cursor\` and answer
\`{"data": [...], "nextCursor": "..." | null}\`. Unknown query parameters are ignored; unknown body fields are
rejected. Errors are \`{"error": {"code", "message"}}\`.
`.trim();

type Document = ReturnType<typeof createDocument>;
let cached: Document | undefined;

/**
 * Request bodies get their schema inline rather than as a $ref to a component: generators (openapi-typescript with
 * its default options) make a field that has a default required when they meet it in a component, and optional only
 * inside a requestBody. A component that nothing else refers to is then dropped.
 */
function inlineRequestBodies(doc: Document): Document {
  const schemas = doc.components?.schemas ?? {};
  const inlined = new Set<string>();
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item ?? {})) {
      const media = (operation as { requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } })?.requestBody?.content?.["application/json"];
      const name = media?.schema?.$ref?.replace("#/components/schemas/", "");
      if (!media || !name || !schemas[name]) continue;
      media.schema = structuredClone(schemas[name]) as typeof media.schema;
      inlined.add(name);
    }
  }
  const text = JSON.stringify({ ...doc, components: { ...doc.components, schemas: Object.fromEntries(Object.entries(schemas).filter(([k]) => !inlined.has(k))) } });
  for (const name of inlined) if (!text.includes(`"#/components/schemas/${name}"`)) delete schemas[name];
  return doc;
}

/**
 * Each operation's security requirement names the scope it needs, derived by the same table the API enforces
 * (lib/api-keys/scopes.ts), so the document cannot drift from the check.
 */
function withRequiredScopes(doc: Document): Document {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item ?? {})) {
      if (!operation || typeof operation !== "object" || !("responses" in operation)) continue;
      const scope = requiredScope(method.toUpperCase(), path);
      Object.assign(operation, { security: [{ bearerAuth: [scope] }], "x-required-scope": scope });
    }
  }
  return doc;
}

export function openApiDocument(serverUrl = "/api/v1") {
  cached ??= withRequiredScopes(inlineRequestBodies(createDocument({
    openapi: "3.1.0",
    info: { title: "Fenceline API", version: "1.0.0", description: DESCRIPTION },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "Trackables", description: "Tracked devices (called `beacon` in webhook payloads)" },
      { name: "Locations", description: "Positions reported by trackables" },
      {
        name: "Devices",
        description:
          "Device tokens let tracking apps post a trackable's locations directly, to endpoints outside this base path " +
          "that speak each app's own protocol: `POST /ingest/owntracks` (OwnTracks in HTTP mode; the token is the Basic " +
          "password or `?token=`; replies `[]`), `GET|POST /ingest/traccar` (Traccar Client, OsmAnd, GPSLogger: the token " +
          "is `id`, `deviceid` or `device_id`; speed in knots in the query form, m/s in Traccar Client's JSON; replies " +
          "200 with an empty body) and `POST /ingest/overland` (Overland batches; `Authorization: Bearer` or `?token=`; " +
          "replies `{\"result\":\"ok\"}`, skipping points without a valid position or time). Each answers only once " +
          "the points are stored, drops a point whose timestamp, latitude and longitude equal one already stored for the " +
          "trackable, and limits each token to `DEVICE_RATE_LIMIT_PER_MINUTE` requests (600). A fix dated at or before " +
          "1970-01-01T00:00:00Z or beyond any date is acknowledged with the success reply and not stored (the apps would " +
          "resend it for ever after an error); a heading of 360 is stored as 0. Errors use the envelope below: 400 " +
          "invalid position or body, 401 unknown or revoked token, 413, 415 wrong content type (OwnTracks' body is read " +
          "as JSON whatever its type), 429. Stored points carry `source` (`owntracks`, `traccar`, `overland`).",
      },
      {
        name: "Geofences",
        description:
          "Circles or GeoJSON polygons (with holes); a trackable entering or leaving one emits an event, recorded in " +
          "the event log. `occupantCount` and the occupants list say who is inside now.",
      },
      {
        name: "Events",
        description:
          "The event log: every geofence transition, battery.low and device.status_changed, recorded on every plan in " +
          "the transaction that changed the state. Webhook deliveries are made from these records (`Delivery.eventId`).",
      },
      {
        name: "Trips and stops",
        description:
          "Each trackable's fixes split into trips and stops (speed-independent; settings in `Trackable.motion`), with " +
          "trip.started, trip.ended and speed.exceeded events. The same fixes give the same trips in any arrival order.",
      },
      { name: "Webhooks", description: "Account-level endpoints for geofence.entry/exit, location.updated, battery.low and device.status_changed" },
      { name: "Webhook deliveries", description: "Signed POSTs of events to your endpoints, retried after 5 s, 30 s and 2 min" },
      { name: "Webhook events", description: "What your endpoints receive: each event's payload and the headers of every attempt (Standard Webhooks and X-Service-*)" },
      {
        name: "Notification channels",
        description:
          "Where notifications to people go, on every plan: `email` (needs SMTP_URL), `ntfy`, `gotify`, `telegram`, " +
          "`discord`, `slack`. Secret fields are write-only and read back as `…Set: true`.",
      },
      { name: "Account", description: "The workspace the API key belongs to and how long its data is kept" },
      { name: "Audit log", description: "Who changed what in the workspace's configuration, and when" },
      { name: "Privacy zones", description: "Places where fixes are dropped or blurred before they are stored" },
      {
        name: "Notification rules",
        description:
          "Which recorded events go to which channels, when (a weekly schedule in a time zone, a cooldown, a maximum " +
          "event age), worded as a plain sentence or your template; and the log of every delivery, suppressed ones with their reason.",
      },
      {
        name: "Share links",
        description:
          "Public, expiring URLs (`/share/<token>`) that show one trackable's live position without signing in. " +
          "The page reads `GET /api/public/share/<token>` (no key, outside this base path): " +
          "`{trackable: {name, type}, location, expiresAt}`, with the location's `id` and `trackableId` left out; " +
          "404 once the link is expired or revoked; rate limited per link and per client address.",
      },
    ],
    paths: withIdempotencyKeys(paths),
    webhooks: webhookOperations(),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key: fl_…. A key holds scopes, `[\"*\"]` (every scope) or a subset; each operation's security " +
            "requirement (and `x-required-scope`) names the one it needs, `*` where only a full-access key may call it.",
        },
      },
    },
  })));
  return cached;
}
