CREATE TABLE "corrections" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer,
	"leg_id" integer,
	"video_id" integer,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"reason" text NOT NULL,
	"admin_id" integer,
	"admin_name" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_closings" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"taken_at" timestamp with time zone,
	"closed_at" timestamp with time zone NOT NULL,
	"prices" jsonb
);
--> statement-breakpoint
CREATE TABLE "event_prices" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"digest" text NOT NULL,
	"prices" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_leagues" (
	"league" text PRIMARY KEY NOT NULL,
	"schedule_at" timestamp with time zone,
	"odds_at" timestamp with time zone,
	"scores_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "events_game_idx";--> statement-breakpoint
DROP INDEX "picks_graded_idx";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "game_id" text;--> statement-breakpoint
ALTER TABLE "pick_legs" ADD COLUMN "self_reported" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "pick_legs" ADD COLUMN "book" text;--> statement-breakpoint
ALTER TABLE "pick_legs" ADD COLUMN "market_odds" integer;--> statement-breakpoint
ALTER TABLE "pick_legs" ADD COLUMN "priced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pick_legs" ADD COLUMN "void_reason" text;--> statement-breakpoint
ALTER TABLE "pick_legs" ADD COLUMN "closing_odds" integer;--> statement-breakpoint
ALTER TABLE "pick_legs" ADD COLUMN "closing_fair" numeric(8, 6);--> statement-breakpoint
ALTER TABLE "pick_legs" ADD COLUMN "clv" numeric(9, 4);--> statement-breakpoint
ALTER TABLE "picks" ADD COLUMN "self_reported" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "picks" ADD COLUMN "bets_won" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "picks" ADD COLUMN "bets_lost" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "picks" ADD COLUMN "bets_pushed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "picks" ADD COLUMN "bets_void" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "picks" ADD COLUMN "clv_bets" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "picks" ADD COLUMN "clv_sum" numeric(12, 4) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "picks" ADD COLUMN "clv_beat" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "record_bands" ADD COLUMN "clv_bets" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "record_bands" ADD COLUMN "clv_sum" numeric(16, 4) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "record_bands" ADD COLUMN "clv_beat" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "record_bands" ADD COLUMN "picks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "corrections" ADD CONSTRAINT "corrections_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "corrections" ADD CONSTRAINT "corrections_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_closings" ADD CONSTRAINT "event_closings_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_prices" ADD CONSTRAINT "event_prices_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "corrections_event_idx" ON "corrections" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "corrections_video_idx" ON "corrections" USING btree ("video_id");--> statement-breakpoint
CREATE UNIQUE INDEX "events_market_game_idx" ON "events" USING btree ("provider","game_id");--> statement-breakpoint
CREATE INDEX "events_market_teams_idx" ON "events" USING btree ("league",lower("home"),lower("away"),"starts_at") WHERE game_id is not null;--> statement-breakpoint
CREATE INDEX "picks_locks_at_idx" ON "picks" USING btree ("locks_at") WHERE result is null;--> statement-breakpoint
CREATE UNIQUE INDEX "events_game_idx" ON "events" USING btree ("league",lower("home"),lower("away"),"starts_at") WHERE game_id is null;--> statement-breakpoint
CREATE INDEX "picks_graded_idx" ON "picks" USING btree ("graded_at","user_id") WHERE result is not null and removed is distinct from 'moderation' and not self_reported;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_market_game" CHECK (("events"."provider" is null) = ("events"."game_id" is null));--> statement-breakpoint
-- docs/decisions/025 'Picks made before': nothing bound their games, starts or prices to a market, so none can
-- be proven now. Every pick and leg made before this migration is self-reported (the columns' default):
-- shown, never counted. Their bets are counted as the record now counts them (a straight pick's legs, a
-- parlay as one) for the profile's self-reported table.
UPDATE "picks" p SET
  "bets_won" = CASE WHEN p.parlay THEN (p.result = 'win')::int
    ELSE (SELECT count(*) FROM pick_legs l WHERE l.video_id = p.video_id AND l.result = 'win') END,
  "bets_lost" = CASE WHEN p.parlay THEN (p.result = 'loss')::int
    ELSE (SELECT count(*) FROM pick_legs l WHERE l.video_id = p.video_id AND l.result = 'loss') END,
  "bets_pushed" = CASE WHEN p.parlay THEN (p.result = 'push')::int
    ELSE (SELECT count(*) FROM pick_legs l WHERE l.video_id = p.video_id AND l.result = 'push') END,
  "bets_void" = CASE WHEN p.parlay THEN (p.result = 'void')::int
    ELSE (SELECT count(*) FROM pick_legs l WHERE l.video_id = p.video_id AND l.result = 'void') END
WHERE p.result IS NOT NULL;
--> statement-breakpoint
-- The bands now sum bets and CLV, over market-bound picks only (cappers-repository.ts's COUNTED).
CREATE OR REPLACE FUNCTION "record_bands_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := TG_ARGV[0]::integer;
  clock timestamptz;
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM changed_picks p
    WHERE p.result IS NOT NULL AND p.removed IS DISTINCT FROM 'moderation' AND NOT p.self_reported
  ) THEN
    RETURN NULL;
  END IF;
  SELECT c.as_of INTO clock FROM record_bands_clock c WHERE c.id = 1 FOR SHARE;
  INSERT INTO record_bands AS b (user_id, league, band, wins, losses, pushes, voids, units_won, units_risked,
    clv_bets, clv_sum, clv_beat, picks)
  SELECT d.user_id, d.league, d.band, d.wins, d.losses, d.pushes, d.voids, d.units_won, d.units_risked,
    d.clv_bets, d.clv_sum, d.clv_beat, d.picks
  FROM (
    SELECT p.user_id, p.league, record_band(p.graded_at, clock) AS band,
      sign * sum(p.bets_won) AS wins,
      sign * sum(p.bets_lost) AS losses,
      sign * sum(p.bets_pushed) AS pushes,
      sign * sum(p.bets_void) AS voids,
      sign * coalesce(sum(p.units_won), 0) AS units_won,
      sign * coalesce(sum(p.units_risked), 0) AS units_risked,
      sign * sum(p.clv_bets) AS clv_bets,
      sign * sum(p.clv_sum) AS clv_sum,
      sign * sum(p.clv_beat) AS clv_beat,
      sign * count(*) AS picks
    FROM changed_picks p
    WHERE p.result IS NOT NULL AND p.removed IS DISTINCT FROM 'moderation' AND NOT p.self_reported
    GROUP BY 1, 2, 3
  ) d
  -- A deleted capper's picks go with their account, and so do the bands.
  WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = d.user_id)
  ORDER BY 1, 2, 3
  ON CONFLICT (user_id, league, band) DO UPDATE SET
    wins = b.wins + excluded.wins,
    losses = b.losses + excluded.losses,
    pushes = b.pushes + excluded.pushes,
    voids = b.voids + excluded.voids,
    units_won = b.units_won + excluded.units_won,
    units_risked = b.units_risked + excluded.units_risked,
    clv_bets = b.clv_bets + excluded.clv_bets,
    clv_sum = b.clv_sum + excluded.clv_sum,
    clv_beat = b.clv_beat + excluded.clv_beat,
    picks = b.picks + excluded.picks;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DELETE FROM "record_bands";
--> statement-breakpoint
INSERT INTO "record_bands" (user_id, league, band, wins, losses, pushes, voids, units_won, units_risked,
  clv_bets, clv_sum, clv_beat, picks)
SELECT p.user_id, p.league, record_band(p.graded_at, c.as_of),
  sum(p.bets_won), sum(p.bets_lost), sum(p.bets_pushed), sum(p.bets_void),
  coalesce(sum(p.units_won), 0), coalesce(sum(p.units_risked), 0),
  sum(p.clv_bets), sum(p.clv_sum), sum(p.clv_beat), count(*)
FROM picks p CROSS JOIN record_bands_clock c
WHERE p.result IS NOT NULL AND p.removed IS DISTINCT FROM 'moderation' AND NOT p.self_reported
GROUP BY 1, 2, 3;
