CREATE TABLE "privacy_zones" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"radius" double precision NOT NULL,
	"trackable_ids" uuid[],
	"mode" text DEFAULT 'drop' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "privacy_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "location_retention_days" integer;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "event_retention_days" integer;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "delivery_retention_days" integer;--> statement-breakpoint
ALTER TABLE "trackables" ADD COLUMN "tracking" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "privacy_zones" ADD CONSTRAINT "privacy_zones_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "privacy_zones_account_idx" ON "privacy_zones" USING btree ("account_id","id");