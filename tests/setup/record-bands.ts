// What every writer of picks must leave behind (decision 033): record_bands equal to the counted picks
// summed afresh at the bands' clock. Called after the app's own paths (grading, corrections, closes,
// moderation, deletions), so a path that forgets keepRecord fails here.
import { expect } from 'vitest';
import type { Executor } from '#server/db/client.js';
import { sql } from '#server/db/drizzle.js';
import { fromJson, rowsOf } from '#server/db/rows.js';

type Band = [
  number,
  string,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
];

const asBands = (value: unknown) =>
  fromJson<Band[]>(value).map((band) =>
    band.map((figure) => (typeof figure === 'string' ? figure : Number(figure))),
  );

/** Returns how many bands the picks fill, so a caller can check it compared something. */
export async function expectBandsKept(db: Executor): Promise<number> {
  const [row] = rowsOf<{ kept: unknown; counted: unknown; counting: number }>(
    await db.execute(sql`
      with c as (select as_of from record_bands_clock where id = 1),
        counted as (
          select p.user_id, p.league,
            case when p.graded_at >= c.as_of - interval '720 hours' then 0
              when p.graded_at >= c.as_of - interval '2160 hours' then 1 else 2 end as band,
            sum(p.bets_won) as wins, sum(p.bets_lost) as losses, sum(p.bets_pushed) as pushes,
            sum(p.bets_void) as voids, sum(p.units_won) as units_won, sum(p.units_risked) as units_risked,
            sum(p.clv_bets) as clv_bets, sum(p.clv_sum) as clv_sum, sum(p.clv_beat) as clv_beat, count(*) as picks
          from picks p cross join c
          where p.result is not null and p.removed is distinct from 'moderation' and not p.self_reported
          group by 1, 2, 3)
      select
        (select coalesce(json_agg(json_build_array(b.user_id, b.league, b.band, b.wins, b.losses, b.pushes,
            b.voids, b.units_won, b.units_risked, b.clv_bets, b.clv_sum, b.clv_beat, b.picks)
            order by b.user_id, b.league, b.band), '[]')
          from record_bands b
          where b.picks <> 0 or b.wins <> 0 or b.losses <> 0 or b.pushes <> 0 or b.voids <> 0
            or b.units_won <> 0 or b.units_risked <> 0 or b.clv_bets <> 0 or b.clv_sum <> 0 or b.clv_beat <> 0)
          as kept,
        (select coalesce(json_agg(json_build_array(k.user_id, k.league, k.band, k.wins, k.losses, k.pushes,
            k.voids, k.units_won, k.units_risked, k.clv_bets, k.clv_sum, k.clv_beat, k.picks)
            order by k.user_id, k.league, k.band), '[]')
          from counted k) as counted,
        (select count(*)::int from counted) as counting`),
  );
  expect(asBands(row!.kept)).toEqual(asBands(row!.counted));
  return row!.counting;
}
