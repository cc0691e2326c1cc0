ALTER TABLE "subscriptions" ADD COLUMN "promo_code" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "promo_kind" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "promo_percent_off" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "promo_amount_off_cents" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "promo_duration" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "promo_periods_left" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_promo" CHECK ("subscriptions"."promo_code" is null or ("subscriptions"."promo_kind" in ('percent', 'fixed') and "subscriptions"."promo_duration" in ('once', 'forever')));