CREATE TABLE "pick_access" (
	"user_id" integer NOT NULL,
	"video_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pick_access_user_id_video_id_pk" PRIMARY KEY("user_id","video_id")
);
--> statement-breakpoint
CREATE TABLE "sandbox_clock" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"offset_seconds" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sandbox_clock_one_row" CHECK ("sandbox_clock"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "subscription_invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer,
	"capper_id" integer NOT NULL,
	"subscriber_id" integer,
	"amount_cents" integer NOT NULL,
	"charge_id" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"capper_id" integer NOT NULL,
	"name" text NOT NULL,
	"price_cents" integer NOT NULL,
	"interval" text NOT NULL,
	"leagues" text[] NOT NULL,
	"trial_days" integer DEFAULT 0 NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_plans_interval" CHECK ("subscription_plans"."interval" in ('week', 'month', 'season')),
	CONSTRAINT "subscription_plans_price" CHECK ("subscription_plans"."price_cents" between 99 and 100000),
	CONSTRAINT "subscription_plans_trial" CHECK ("subscription_plans"."trial_days" between 0 and 30)
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"plan_id" integer NOT NULL,
	"subscriber_id" integer NOT NULL,
	"capper_id" integer NOT NULL,
	"status" text NOT NULL,
	"provider" text NOT NULL,
	"payment_method_id" text NOT NULL,
	"card_last4" text NOT NULL,
	"trial_end" timestamp with time zone,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"grace_until" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_status" CHECK ("subscriptions"."status" in ('trialing', 'active', 'past_due', 'canceled', 'ended')),
	CONSTRAINT "subscriptions_not_self" CHECK ("subscriptions"."subscriber_id" <> "subscriptions"."capper_id")
);
--> statement-breakpoint
ALTER TABLE "pick_access" ADD CONSTRAINT "pick_access_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pick_access" ADD CONSTRAINT "pick_access_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pick_access" ADD CONSTRAINT "pick_access_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_invoices" ADD CONSTRAINT "subscription_invoices_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_invoices" ADD CONSTRAINT "subscription_invoices_capper_id_users_id_fk" FOREIGN KEY ("capper_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_invoices" ADD CONSTRAINT "subscription_invoices_subscriber_id_users_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_capper_id_users_id_fk" FOREIGN KEY ("capper_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_subscriber_id_users_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_capper_id_users_id_fk" FOREIGN KEY ("capper_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pick_access_video_idx" ON "pick_access" USING btree ("video_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_invoices_charge_idx" ON "subscription_invoices" USING btree ("charge_id");--> statement-breakpoint
CREATE INDEX "subscription_invoices_capper_idx" ON "subscription_invoices" USING btree ("capper_id");--> statement-breakpoint
CREATE INDEX "subscription_plans_capper_idx" ON "subscription_plans" USING btree ("capper_id");--> statement-breakpoint
CREATE INDEX "subscriptions_subscriber_idx" ON "subscriptions" USING btree ("subscriber_id");--> statement-breakpoint
CREATE INDEX "subscriptions_capper_idx" ON "subscriptions" USING btree ("capper_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_live_idx" ON "subscriptions" USING btree ("plan_id","subscriber_id") WHERE status <> 'ended';--> statement-breakpoint
CREATE INDEX "subscriptions_due_idx" ON "subscriptions" USING btree ("current_period_end") WHERE status <> 'ended';