-- docs/decisions/033: the record module keeps record_bands in the transactions that change picks, and a
-- recurring job moves their clock; the triggers, their function and the band rule leave the database.
-- The bands and the clock stay as they are: they hold the same figures the module keeps.
DROP TRIGGER IF EXISTS "record_bands_insert" ON "picks";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "record_bands_update_old" ON "picks";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "record_bands_update_new" ON "picks";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "record_bands_delete" ON "picks";
--> statement-breakpoint
DROP FUNCTION IF EXISTS "record_bands_change"();
--> statement-breakpoint
DROP FUNCTION IF EXISTS "record_band"(timestamptz, timestamptz);
