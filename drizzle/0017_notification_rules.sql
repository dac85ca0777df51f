CREATE TABLE "notification_rules" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"event_types" text[] NOT NULL,
	"trackable_ids" uuid[],
	"geofence_ids" uuid[],
	"channel_ids" uuid[] NOT NULL,
	"schedule" jsonb,
	"cooldown_seconds" integer DEFAULT 0 NOT NULL,
	"max_event_age_seconds" integer DEFAULT 900 NOT NULL,
	"template" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"rule_id" uuid,
	"channel_id" uuid,
	"event_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"trackable_id" uuid NOT NULL,
	"event_occurred_at" timestamp (3) with time zone NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"message" jsonb NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_delivery_attempts" (
	"delivery_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"attempted_at" timestamp (3) with time zone NOT NULL,
	"completed_at" timestamp (3) with time zone,
	"status_code" integer,
	"error" text,
	CONSTRAINT "notification_delivery_attempts_delivery_id_number_pk" PRIMARY KEY("delivery_id","number")
);
--> statement-breakpoint
ALTER TABLE "notification_rules" ADD CONSTRAINT "notification_rules_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_rule_id_notification_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."notification_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_channel_id_notification_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."notification_channels"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_delivery_attempts" ADD CONSTRAINT "notification_delivery_attempts_delivery_id_notification_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."notification_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_rules_account_idx" ON "notification_rules" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "notification_deliveries_account_idx" ON "notification_deliveries" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "notification_deliveries_account_rule_idx" ON "notification_deliveries" USING btree ("account_id","rule_id","id");--> statement-breakpoint
CREATE INDEX "notification_deliveries_account_channel_idx" ON "notification_deliveries" USING btree ("account_id","channel_id","id");--> statement-breakpoint
CREATE INDEX "notification_deliveries_account_event_idx" ON "notification_deliveries" USING btree ("account_id","event_id","id");--> statement-breakpoint
CREATE INDEX "notification_deliveries_cooldown_idx" ON "notification_deliveries" USING btree ("rule_id","trackable_id","event_type","event_occurred_at") WHERE status <> 'suppressed';--> statement-breakpoint
CREATE UNIQUE INDEX "notification_deliveries_event_channel_idx" ON "notification_deliveries" USING btree ("event_id","channel_id") WHERE status <> 'suppressed';