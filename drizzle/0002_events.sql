CREATE TABLE "trackable_states" (
	"trackable_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"evaluated_timestamp" timestamp (3) with time zone,
	"evaluated_location_id" uuid,
	"status" text,
	"last_seen_at" timestamp (3) with time zone,
	"battery" double precision,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "geofence_memberships" (
	"trackable_id" uuid NOT NULL,
	"geofence_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"entered_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "geofence_memberships_trackable_id_geofence_id_pk" PRIMARY KEY("trackable_id","geofence_id")
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"events" text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"secret" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"event" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"test" boolean DEFAULT false NOT NULL,
	"geofence_id" uuid,
	"webhook_id" uuid,
	"trackable_id" uuid,
	"url" text NOT NULL,
	"secret" text,
	"payload" json NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_delivery_attempts" (
	"delivery_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"attempted_at" timestamp (3) with time zone NOT NULL,
	"completed_at" timestamp (3) with time zone,
	"status_code" integer,
	"response_body" text,
	"error" text,
	"duration_ms" integer,
	CONSTRAINT "webhook_delivery_attempts_delivery_id_number_pk" PRIMARY KEY("delivery_id","number")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"run_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp (3) with time zone,
	"locked_by" text,
	"failures" integer DEFAULT 0 NOT NULL,
	"steps" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"dedupe_key" text,
	"concurrency_key" text,
	"error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trackable_states" ADD CONSTRAINT "trackable_states_trackable_id_trackables_id_fk" FOREIGN KEY ("trackable_id") REFERENCES "public"."trackables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "geofence_memberships" ADD CONSTRAINT "geofence_memberships_trackable_id_trackables_id_fk" FOREIGN KEY ("trackable_id") REFERENCES "public"."trackables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "geofence_memberships" ADD CONSTRAINT "geofence_memberships_geofence_id_geofences_id_fk" FOREIGN KEY ("geofence_id") REFERENCES "public"."geofences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_geofence_id_geofences_id_fk" FOREIGN KEY ("geofence_id") REFERENCES "public"."geofences"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_trackable_id_trackables_id_fk" FOREIGN KEY ("trackable_id") REFERENCES "public"."trackables"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trackable_states_online_seen_idx" ON "trackable_states" USING btree ("last_seen_at") WHERE "trackable_states"."status" = 'online';--> statement-breakpoint
CREATE INDEX "geofence_memberships_geofence_idx" ON "geofence_memberships" USING btree ("geofence_id");--> statement-breakpoint
CREATE INDEX "webhooks_account_id_idx" ON "webhooks" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_account_id_idx" ON "webhook_deliveries" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_account_geofence_idx" ON "webhook_deliveries" USING btree ("account_id","geofence_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_account_webhook_idx" ON "webhook_deliveries" USING btree ("account_id","webhook_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_account_status_idx" ON "webhook_deliveries" USING btree ("account_id","status","id");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "jobs_running_idx" ON "jobs" USING btree ("locked_until") WHERE "jobs"."status" = 'running';--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_queued_dedupe_key" ON "jobs" USING btree ("dedupe_key") WHERE "jobs"."status" = 'queued' and "jobs"."dedupe_key" is not null;