CREATE TABLE "promo_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"capper_id" integer NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"percent_off" integer,
	"amount_off_cents" integer,
	"expires_at" timestamp with time zone,
	"max_uses" integer,
	"duration" text DEFAULT 'once' NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_codes_kind" CHECK (("promo_codes"."kind" = 'percent' and "promo_codes"."percent_off" between 1 and 90 and "promo_codes"."amount_off_cents" is null)
        or ("promo_codes"."kind" = 'fixed' and "promo_codes"."amount_off_cents" > 0 and "promo_codes"."percent_off" is null)),
	CONSTRAINT "promo_codes_duration" CHECK ("promo_codes"."duration" in ('once', 'forever')),
	CONSTRAINT "promo_codes_max_uses" CHECK ("promo_codes"."max_uses" is null or "promo_codes"."max_uses" > 0)
);
--> statement-breakpoint
CREATE TABLE "promo_redemptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"promo_code_id" integer NOT NULL,
	"buyer_id" integer,
	"payment_intent_id" text,
	"subscription_id" text,
	"list_price_cents" integer NOT NULL,
	"amount_off_cents" integer NOT NULL,
	"status" text DEFAULT 'reserved' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"redeemed_at" timestamp with time zone,
	CONSTRAINT "promo_redemptions_status" CHECK ("promo_redemptions"."status" in ('reserved', 'redeemed', 'released'))
);
--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_capper_id_users_id_fk" FOREIGN KEY ("capper_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_redemptions" ADD CONSTRAINT "promo_redemptions_promo_code_id_promo_codes_id_fk" FOREIGN KEY ("promo_code_id") REFERENCES "public"."promo_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_redemptions" ADD CONSTRAINT "promo_redemptions_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "promo_codes_capper_code_idx" ON "promo_codes" USING btree ("capper_id",upper("code"));--> statement-breakpoint
CREATE UNIQUE INDEX "promo_redemptions_intent_idx" ON "promo_redemptions" USING btree ("payment_intent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "promo_redemptions_buyer_idx" ON "promo_redemptions" USING btree ("promo_code_id","buyer_id") WHERE status <> 'released';