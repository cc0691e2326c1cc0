CREATE TABLE "events" (
	"id" serial PRIMARY KEY NOT NULL,
	"league" text NOT NULL,
	"home" text NOT NULL,
	"away" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"home_score" integer,
	"away_score" integer,
	"settled_at" timestamp with time zone,
	"settled_by" integer,
	"source" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_status" CHECK ("events"."status" in ('scheduled', 'final', 'postponed', 'cancelled')),
	CONSTRAINT "events_score" CHECK (("events"."status" = 'final') = ("events"."home_score" is not null and "events"."away_score" is not null))
);
--> statement-breakpoint
CREATE TABLE "pick_legs" (
	"id" serial PRIMARY KEY NOT NULL,
	"video_id" integer NOT NULL,
	"position" integer NOT NULL,
	"event_id" integer NOT NULL,
	"market" text NOT NULL,
	"side" text NOT NULL,
	"line" numeric(6, 1),
	"odds" integer NOT NULL,
	"units" numeric(4, 1) NOT NULL,
	"result" text,
	"grade_reason" text,
	"graded_by" integer,
	"graded_at" timestamp with time zone,
	CONSTRAINT "pick_legs_result" CHECK ("pick_legs"."result" in ('win', 'loss', 'push', 'void')),
	CONSTRAINT "pick_legs_market" CHECK ("pick_legs"."market" in ('moneyline', 'spread', 'total', 'prop', 'other'))
);
--> statement-breakpoint
CREATE TABLE "pick_versions" (
	"video_id" integer NOT NULL,
	"version" integer NOT NULL,
	"commitment" text NOT NULL,
	"sealed" text NOT NULL,
	"posted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "picks" (
	"video_id" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"league" text NOT NULL,
	"parlay" boolean DEFAULT false NOT NULL,
	"leg_count" integer NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"commitment" text NOT NULL,
	"sealed" text NOT NULL,
	"posted_at" timestamp with time zone NOT NULL,
	"first_posted_at" timestamp with time zone NOT NULL,
	"locks_at" timestamp with time zone NOT NULL,
	"result" text,
	"units_won" numeric(10, 2),
	"units_risked" numeric(10, 2),
	"graded_at" timestamp with time zone,
	"removed" text,
	"removed_at" timestamp with time zone,
	"title" text NOT NULL,
	CONSTRAINT "picks_result" CHECK ("picks"."result" in ('win', 'loss', 'push', 'void')),
	CONSTRAINT "picks_removed" CHECK ("picks"."removed" in ('capper', 'moderation'))
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_settled_by_users_id_fk" FOREIGN KEY ("settled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pick_legs" ADD CONSTRAINT "pick_legs_video_id_picks_video_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."picks"("video_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pick_legs" ADD CONSTRAINT "pick_legs_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pick_legs" ADD CONSTRAINT "pick_legs_graded_by_users_id_fk" FOREIGN KEY ("graded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pick_versions" ADD CONSTRAINT "pick_versions_video_id_picks_video_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."picks"("video_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "picks" ADD CONSTRAINT "picks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "events_game_idx" ON "events" USING btree ("league",lower("home"),lower("away"),"starts_at");--> statement-breakpoint
CREATE INDEX "events_unsettled_idx" ON "events" USING btree ("starts_at","id") WHERE status = 'scheduled';--> statement-breakpoint
CREATE UNIQUE INDEX "pick_legs_position_idx" ON "pick_legs" USING btree ("video_id","position");--> statement-breakpoint
CREATE INDEX "pick_legs_event_idx" ON "pick_legs" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pick_versions_idx" ON "pick_versions" USING btree ("video_id","version");--> statement-breakpoint
CREATE INDEX "picks_user_graded_idx" ON "picks" USING btree ("user_id","graded_at");--> statement-breakpoint
CREATE INDEX "picks_graded_idx" ON "picks" USING btree ("graded_at","user_id") WHERE result is not null and removed is distinct from 'moderation';