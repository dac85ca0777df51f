CREATE TABLE "device_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"trackable_id" uuid NOT NULL,
	"name" text,
	"hash" text NOT NULL,
	"prefix" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "source" text DEFAULT 'api' NOT NULL;--> statement-breakpoint
ALTER TABLE "device_tokens" ADD CONSTRAINT "device_tokens_trackable_id_trackables_id_fk" FOREIGN KEY ("trackable_id") REFERENCES "public"."trackables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_tokens_hash_key" ON "device_tokens" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "device_tokens_trackable_idx" ON "device_tokens" USING btree ("trackable_id","id");