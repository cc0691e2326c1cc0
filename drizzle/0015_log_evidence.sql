ALTER TABLE "log_entries" DROP CONSTRAINT "log_entries_type";--> statement-breakpoint
ALTER TABLE "log_entries" ALTER COLUMN "video_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "log_entries" ALTER COLUMN "capper" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "log_pending" ALTER COLUMN "video_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "log_pending" ALTER COLUMN "capper" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "outcome_entry" "bytea";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "closed_entry" "bytea";--> statement-breakpoint
ALTER TABLE "log_entries" ADD COLUMN "event_id" integer;--> statement-breakpoint
ALTER TABLE "log_pending" ADD COLUMN "event_id" integer;--> statement-breakpoint
CREATE INDEX "log_entries_event_idx" ON "log_entries" USING btree ("event_id","idx") WHERE event_id is not null;--> statement-breakpoint
ALTER TABLE "log_entries" ADD CONSTRAINT "log_entries_type" CHECK ("log_entries"."type" in ('posted', 'revised', 'graded', 'removed', 'settled', 'corrected', 'closed'));