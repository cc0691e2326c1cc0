ALTER TABLE "payment_intents" ADD COLUMN "refund_reason" text;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
-- Hand-written (issue 11): before at most one open intent per buyer and video is enforced, cancel the extra
-- open ones earlier races left behind, keeping each pair's newest. A Stripe intent canceled here that is
-- paid anyway is refunded by fulfilment unless it is the buyer's first payment for that video.
UPDATE "payment_intents" SET "status" = 'canceled', "last_error" = 'This payment was replaced by a newer one for the same pick.', "updated_at" = now()
WHERE "status" NOT IN ('succeeded', 'canceled', 'refunded') AND "buyer_id" IS NOT NULL AND "video_id" IS NOT NULL
AND "id" NOT IN (
  SELECT DISTINCT ON ("buyer_id", "video_id") "id" FROM "payment_intents"
  WHERE "status" NOT IN ('succeeded', 'canceled', 'refunded') AND "buyer_id" IS NOT NULL AND "video_id" IS NOT NULL
  ORDER BY "buyer_id", "video_id", "created_at" DESC, "id" DESC
);--> statement-breakpoint
CREATE UNIQUE INDEX "payment_intents_open_idx" ON "payment_intents" USING btree ("buyer_id","video_id") WHERE status not in ('succeeded', 'canceled', 'refunded');--> statement-breakpoint
CREATE INDEX "payment_intents_open_video_idx" ON "payment_intents" USING btree ("video_id") WHERE status not in ('succeeded', 'canceled', 'refunded');