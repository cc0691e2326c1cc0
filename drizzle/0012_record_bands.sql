CREATE TABLE "record_bands" (
	"user_id" integer NOT NULL,
	"league" text NOT NULL,
	"band" smallint NOT NULL,
	"wins" integer DEFAULT 0 NOT NULL,
	"losses" integer DEFAULT 0 NOT NULL,
	"pushes" integer DEFAULT 0 NOT NULL,
	"voids" integer DEFAULT 0 NOT NULL,
	"units_won" numeric(14, 2) DEFAULT 0 NOT NULL,
	"units_risked" numeric(14, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "record_bands_user_id_league_band_pk" PRIMARY KEY("user_id","league","band"),
	CONSTRAINT "record_bands_band" CHECK ("record_bands"."band" in (0, 1, 2))
);
--> statement-breakpoint
CREATE TABLE "record_bands_clock" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	CONSTRAINT "record_bands_clock_one_row" CHECK ("record_bands_clock"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "record_bands" ADD CONSTRAINT "record_bands_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Issue 14 'Speed', docs/decisions/020 'How records are kept'. A pick counts on a record when graded and
-- not removed by moderation (as cappers-repository.ts's COUNTED); its band is its grading time's age at the
-- clock: 0 within 30 days (720 hours, as the profile's periods), 1 within 90, 2 earlier (or no time).
CREATE FUNCTION "record_band"(graded_at timestamptz, clock timestamptz) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN graded_at >= clock - interval '720 hours' THEN 0
    WHEN graded_at >= clock - interval '2160 hours' THEN 1 ELSE 2 END::smallint
$$;
--> statement-breakpoint
-- One statement's picks (the rows before an update or a delete, after an update or an insert) taken off
-- (TG_ARGV[0] = -1) or added to (1) their capper's bands, once per statement. Only statements that touch
-- counted picks lock anything: the clock's row in share mode, so writers run side by side while the clock
-- cannot move under them (the leaderboard's read takes it for update), then the bands' rows in one order.
CREATE FUNCTION "record_bands_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := TG_ARGV[0]::integer;
  clock timestamptz;
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM changed_picks p WHERE p.result IS NOT NULL AND p.removed IS DISTINCT FROM 'moderation'
  ) THEN
    RETURN NULL;
  END IF;
  SELECT c.as_of INTO clock FROM record_bands_clock c WHERE c.id = 1 FOR SHARE;
  INSERT INTO record_bands AS b (user_id, league, band, wins, losses, pushes, voids, units_won, units_risked)
  SELECT d.user_id, d.league, d.band, d.wins, d.losses, d.pushes, d.voids, d.units_won, d.units_risked
  FROM (
    SELECT p.user_id, p.league, record_band(p.graded_at, clock) AS band,
      sign * count(*) FILTER (WHERE p.result = 'win') AS wins,
      sign * count(*) FILTER (WHERE p.result = 'loss') AS losses,
      sign * count(*) FILTER (WHERE p.result = 'push') AS pushes,
      sign * count(*) FILTER (WHERE p.result = 'void') AS voids,
      sign * coalesce(sum(p.units_won), 0) AS units_won,
      sign * coalesce(sum(p.units_risked), 0) AS units_risked
    FROM changed_picks p
    WHERE p.result IS NOT NULL AND p.removed IS DISTINCT FROM 'moderation'
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
    units_risked = b.units_risked + excluded.units_risked;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "record_bands_insert" AFTER INSERT ON "picks" REFERENCING NEW TABLE AS changed_picks
  FOR EACH STATEMENT EXECUTE FUNCTION record_bands_change('1');
--> statement-breakpoint
CREATE TRIGGER "record_bands_update_old" AFTER UPDATE ON "picks" REFERENCING OLD TABLE AS changed_picks
  FOR EACH STATEMENT EXECUTE FUNCTION record_bands_change('-1');
--> statement-breakpoint
CREATE TRIGGER "record_bands_update_new" AFTER UPDATE ON "picks" REFERENCING NEW TABLE AS changed_picks
  FOR EACH STATEMENT EXECUTE FUNCTION record_bands_change('1');
--> statement-breakpoint
CREATE TRIGGER "record_bands_delete" AFTER DELETE ON "picks" REFERENCING OLD TABLE AS changed_picks
  FOR EACH STATEMENT EXECUTE FUNCTION record_bands_change('-1');
--> statement-breakpoint
INSERT INTO "record_bands_clock" ("id", "as_of") VALUES (1, now());
--> statement-breakpoint
INSERT INTO "record_bands" (user_id, league, band, wins, losses, pushes, voids, units_won, units_risked)
SELECT p.user_id, p.league, record_band(p.graded_at, c.as_of),
  count(*) FILTER (WHERE p.result = 'win'), count(*) FILTER (WHERE p.result = 'loss'),
  count(*) FILTER (WHERE p.result = 'push'), count(*) FILTER (WHERE p.result = 'void'),
  coalesce(sum(p.units_won), 0), coalesce(sum(p.units_risked), 0)
FROM picks p CROSS JOIN record_bands_clock c
WHERE p.result IS NOT NULL AND p.removed IS DISTINCT FROM 'moderation'
GROUP BY 1, 2, 3;
