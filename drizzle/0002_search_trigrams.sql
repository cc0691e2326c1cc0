-- The trigram operator classes of the search indexes below (PGlite loads pg_trgm as an extension too).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "videos_title_trgm_idx" ON "videos" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "videos_description_trgm_idx" ON "videos" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "videos_category_trgm_idx" ON "videos" USING gin ("category" gin_trgm_ops);