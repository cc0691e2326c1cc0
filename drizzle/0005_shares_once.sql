ALTER TABLE "video_shares" ADD COLUMN "viewer_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "video_shares_once_idx" ON "video_shares" USING btree ("video_id","viewer_key","platform");