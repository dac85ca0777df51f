-- cube + earthdistance: the GiST index that finds candidate geofences for a point (PGlite ships both).
CREATE EXTENSION IF NOT EXISTS cube;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS earthdistance;
