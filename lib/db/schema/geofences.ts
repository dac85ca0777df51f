import { sql } from "drizzle-orm";
import { boolean, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { PolygonGeometry } from "../../geofences/shapes";
import { accounts } from "./accounts";
import { createdAt, id, ts, updatedAt } from "./columns";

export const geofences = pgTable(
  "geofences",
  {
    id: id(),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    shape: text("shape", { enum: ["circle", "polygon"] }).notNull().default("circle"),
    // A polygon's GeoJSON rings (null for a circle). latitude/longitude/radius then hold its centroid and the distance
    // to its farthest vertex: the bounding circle the GiST index below finds candidates by.
    geometry: jsonb("geometry").$type<PolygonGeometry>(),
    latitude: doublePrecision("latitude").notNull(),
    longitude: doublePrecision("longitude").notNull(),
    radius: doublePrecision("radius").notNull(),
    notificationType: text("notification_type", { enum: ["none", "webhook"] }).notNull().default("none"),
    webhookUrl: text("webhook_url"),
    // Needed in clear to sign deliveries; never returned by the API (write-only).
    webhookSecret: text("webhook_secret"),
    // After a rotation, deliveries are also signed by the previous secret until it expires (webhook-signature).
    previousWebhookSecret: text("previous_webhook_secret"),
    previousWebhookSecretExpiresAt: ts("previous_webhook_secret_expires_at"),
    // GPS-noise settings (see lib/geofences/evaluation.ts): hysteresis in metres, debounce and dwell in seconds, and the
    // worst accuracy (metres) a point may have to count; null = no limit.
    exitBuffer: doublePrecision("exit_buffer").notNull().default(0),
    debounceSeconds: integer("debounce_seconds").notNull().default(0),
    dwellSeconds: integer("dwell_seconds").notNull().default(0),
    maxAccuracy: doublePrecision("max_accuracy"),
    // m/s: speed.exceeded inside the fence above it (the lower of it and the trackable's limit wins); null = none.
    speedLimit: doublePrecision("speed_limit"),
    tag: text("tag"),
    externalId: text("external_id"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    // true: every trackable of the account is evaluated; false: only those in geofence_trackables.
    allTrackables: boolean("all_trackables").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // GET /geofences pages through an account's geofences by id.
    index("geofences_account_id_idx").on(t.accountId, t.id),
    // GET /geofences?tag= pages through one tag's geofences.
    index("geofences_account_tag_idx").on(t.accountId, t.tag, t.id),
    // An externalId names one geofence per account (a duplicate is 409), and GET /geofences?externalId= finds it.
    uniqueIndex("geofences_account_external_id_idx").on(t.accountId, t.externalId),
    // Evaluation finds the geofences whose bounding cube contains a point without scanning the account's geofences.
    // The cube is padded by 1%: earthdistance's sphere (R = 6378168 m) is larger than the haversine one we decide
    // "inside" with (R = 6371008.8 m), so an unpadded cube could miss a point right at the radius.
    index("geofences_earth_box_idx").using("gist", sql`earth_box(ll_to_earth(${t.latitude}, ${t.longitude}), ${t.radius} * 1.01)`),
  ],
);

export type GeofenceRow = typeof geofences.$inferSelect;
