ALTER TABLE "geofences" ADD COLUMN "shape" text DEFAULT 'circle' NOT NULL;--> statement-breakpoint
ALTER TABLE "geofences" ADD COLUMN "geometry" jsonb;