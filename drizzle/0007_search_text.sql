DROP INDEX "videos_title_trgm_idx";--> statement-breakpoint
DROP INDEX "videos_description_trgm_idx";--> statement-breakpoint
DROP INDEX "videos_category_trgm_idx";--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(title || ' ' || description || ' ' || category)) STORED;--> statement-breakpoint
CREATE INDEX "videos_search_trgm_idx" ON "videos" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);