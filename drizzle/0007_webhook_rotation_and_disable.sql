ALTER TABLE "geofences" ADD COLUMN "previous_webhook_secret" text;--> statement-breakpoint
ALTER TABLE "geofences" ADD COLUMN "previous_webhook_secret_expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "previous_secret" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "previous_secret_expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "disabled_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "consecutive_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "previous_secret" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "previous_secret_expires_at" timestamp (3) with time zone;