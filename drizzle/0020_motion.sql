CREATE TABLE "speed_episodes" (
	"trackable_id" uuid NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "speed_episodes_trackable_id_started_at_pk" PRIMARY KEY("trackable_id","started_at")
);
--> statement-breakpoint
CREATE TABLE "stops" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"trackable_id" uuid NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"duration" double precision NOT NULL,
	"anchor_at" timestamp (3) with time zone NOT NULL,
	"geofence_ids" uuid[] DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trips" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"trackable_id" uuid NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone,
	"start_latitude" double precision NOT NULL,
	"start_longitude" double precision NOT NULL,
	"end_latitude" double precision,
	"end_longitude" double precision,
	"distance" double precision NOT NULL,
	"duration" double precision NOT NULL,
	"max_speed" double precision NOT NULL,
	"point_count" integer NOT NULL,
	"last_fix_at" timestamp (3) with time zone NOT NULL,
	"started_sent" boolean DEFAULT false NOT NULL,
	"ended_sent" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trackables" ADD COLUMN "motion" jsonb;--> statement-breakpoint
ALTER TABLE "geofences" ADD COLUMN "speed_limit" double precision;--> statement-breakpoint
ALTER TABLE "trackable_states" ADD COLUMN "motion_seen_id" uuid;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "trip_id" uuid;--> statement-breakpoint
ALTER TABLE "speed_episodes" ADD CONSTRAINT "speed_episodes_trackable_id_trackables_id_fk" FOREIGN KEY ("trackable_id") REFERENCES "public"."trackables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stops" ADD CONSTRAINT "stops_trackable_id_trackables_id_fk" FOREIGN KEY ("trackable_id") REFERENCES "public"."trackables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trips" ADD CONSTRAINT "trips_trackable_id_trackables_id_fk" FOREIGN KEY ("trackable_id") REFERENCES "public"."trackables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stops_trackable_anchor_idx" ON "stops" USING btree ("trackable_id","anchor_at");--> statement-breakpoint
CREATE INDEX "stops_trackable_started_idx" ON "stops" USING btree ("trackable_id","started_at","id");--> statement-breakpoint
CREATE INDEX "stops_account_started_idx" ON "stops" USING btree ("account_id","started_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "trips_account_started_idx" ON "trips" USING btree ("account_id","started_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "trips_trackable_started_idx" ON "trips" USING btree ("trackable_id","started_at","id");