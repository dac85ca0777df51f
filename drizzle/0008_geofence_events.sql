CREATE TABLE "geofence_pending_crossings" (
	"trackable_id" uuid NOT NULL,
	"geofence_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"timestamp" timestamp (3) with time zone NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"accuracy" double precision,
	CONSTRAINT "geofence_pending_crossings_trackable_id_geofence_id_pk" PRIMARY KEY("trackable_id","geofence_id")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"type" text NOT NULL,
	"trackable_id" uuid NOT NULL,
	"geofence_id" uuid,
	"occurred_at" timestamp (3) with time zone NOT NULL,
	"location" jsonb,
	"reason" text,
	"duration_seconds" integer,
	"confidence" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "geofences" ADD COLUMN "shape" text DEFAULT 'circle' NOT NULL;--> statement-breakpoint
ALTER TABLE "geofences" ADD COLUMN "geometry" jsonb;--> statement-breakpoint
ALTER TABLE "geofences" ADD COLUMN "exit_buffer" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "geofences" ADD COLUMN "debounce_seconds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "geofences" ADD COLUMN "dwell_seconds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "geofences" ADD COLUMN "max_accuracy" double precision;--> statement-breakpoint
ALTER TABLE "geofences" ADD COLUMN "tag" text;--> statement-breakpoint
ALTER TABLE "geofences" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "geofences" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "geofence_memberships" ADD COLUMN "dwelt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "event_id" uuid;--> statement-breakpoint
ALTER TABLE "geofence_pending_crossings" ADD CONSTRAINT "geofence_pending_crossings_trackable_id_trackables_id_fk" FOREIGN KEY ("trackable_id") REFERENCES "public"."trackables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "geofence_pending_crossings" ADD CONSTRAINT "geofence_pending_crossings_geofence_id_geofences_id_fk" FOREIGN KEY ("geofence_id") REFERENCES "public"."geofences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "geofence_pending_crossings_geofence_idx" ON "geofence_pending_crossings" USING btree ("geofence_id");--> statement-breakpoint
CREATE INDEX "events_account_occurred_idx" ON "events" USING btree ("account_id","occurred_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_trackable_occurred_idx" ON "events" USING btree ("account_id","trackable_id","occurred_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_geofence_occurred_idx" ON "events" USING btree ("account_id","geofence_id","occurred_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "geofences_account_tag_idx" ON "geofences" USING btree ("account_id","tag","id");--> statement-breakpoint
CREATE UNIQUE INDEX "geofences_account_external_id_idx" ON "geofences" USING btree ("account_id","external_id");