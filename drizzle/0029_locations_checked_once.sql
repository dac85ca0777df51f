-- A location's trackable is checked once per statement and trackable, not once per row: the motion_inbox row that
-- every statement storing locations adds (the trigger of 0027) is checked by motion_inbox's foreign key, which also
-- key-share locks the trackable until the statement's transaction ends, as the per-row check did. A per-row check
-- was a third of a 100-point insert's execution.
ALTER TABLE "locations" DROP CONSTRAINT "locations_trackable_id_trackables_id_fk";--> statement-breakpoint
-- What the dropped ON DELETE CASCADE did: a trackable's delete (its own, or its account's) takes its locations along,
-- in one statement for all the trackables a statement deleted.
CREATE FUNCTION "trackables_delete_locations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM locations l USING gone g WHERE l.trackable_id = g.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "trackables_delete_locations" AFTER DELETE ON "trackables" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION "trackables_delete_locations"();
