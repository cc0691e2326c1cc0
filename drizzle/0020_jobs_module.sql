-- The jobs table serves every kind of job: a media job's video id moves into its payload, and `key` names a
-- job so that at most one is live at a time (process_video:<id>: one processing per video).
ALTER TABLE "jobs" ADD COLUMN "key" text;--> statement-breakpoint
UPDATE "jobs" SET "payload" = "payload" || jsonb_build_object('videoId', "video_id") WHERE "video_id" IS NOT NULL;--> statement-breakpoint
UPDATE "jobs" SET "key" = 'process_video:' || "video_id"
  WHERE "kind" = 'process_video' AND "video_id" IS NOT NULL
    AND ("status" NOT IN ('queued', 'running')
      OR "id" IN (SELECT max("id") FROM "jobs" WHERE "kind" = 'process_video' AND "status" IN ('queued', 'running') GROUP BY "video_id"));--> statement-breakpoint
ALTER TABLE "jobs" DROP CONSTRAINT "jobs_video_id_videos_id_fk";--> statement-breakpoint
DROP INDEX "jobs_video_id_idx";--> statement-breakpoint
ALTER TABLE "jobs" DROP COLUMN "video_id";--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_key_live_idx" ON "jobs" USING btree ("key") WHERE status in ('queued', 'running');
