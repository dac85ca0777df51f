CREATE TABLE "motion_inbox" (
	"trackable_id" uuid NOT NULL,
	"earliest" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "motion_inbox" ADD CONSTRAINT "motion_inbox_trackable_id_trackables_id_fk" FOREIGN KEY ("trackable_id") REFERENCES "public"."trackables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "motion_inbox_trackable_idx" ON "motion_inbox" USING btree ("trackable_id");--> statement-breakpoint
-- Every statement that stores locations announces them to motion, per trackable, in its own transaction: the rows
-- become visible with the fixes they announce, however late those commit. Once per statement, not per row.
CREATE FUNCTION "motion_inbox_announce"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO motion_inbox (trackable_id, earliest)
    SELECT trackable_id, min("timestamp") FROM stored GROUP BY trackable_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "locations_motion_inbox" AFTER INSERT ON "locations" REFERENCING NEW TABLE AS stored
  FOR EACH STATEMENT EXECUTE FUNCTION "motion_inbox_announce"();--> statement-breakpoint
-- What motion had not taken in yet: the fixes above each trackable's watermark (the column dropped below).
INSERT INTO "motion_inbox" ("trackable_id", "earliest")
  SELECT l.trackable_id, min(l."timestamp")
  FROM "locations" l JOIN "trackable_states" s ON s.trackable_id = l.trackable_id
  WHERE l.id > coalesce(s.motion_seen_id, '00000000-0000-0000-0000-000000000000'::uuid)
  GROUP BY l.trackable_id;--> statement-breakpoint
ALTER TABLE "trackable_states" DROP COLUMN "motion_seen_id";
