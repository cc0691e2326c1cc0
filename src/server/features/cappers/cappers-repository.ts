// Queries of a capper's record (issue 14): graded picks by capper (picks_user_graded_idx), and the
// leaderboard's and badges' totals aggregated in SQL over the picks table.
import { sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.js';
import { rowsOf } from '#server/db/rows.js';

/** Picks that count on a record: graded, and not removed by moderation (a capper's removal still counts). */
const COUNTED = sql`p.result is not null and p.removed is distinct from 'moderation'`;

const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

export interface CapperRow {
  id: number;
  username: string;
  displayName: string | null;
  bio: string | null;
  avatarUrl: string | null;
}

export async function findCapper(db: Executor, username: string): Promise<CapperRow | undefined> {
  const [row] = rowsOf<CapperRow>(
    await db.execute(sql`
      select id, username, display_name as "displayName", bio, avatar_url as "avatarUrl"
      from users where lower(username) = lower(${username})`),
  );
  return row;
}

export interface GradeRow {
  league: string;
  result: 'win' | 'loss' | 'push' | 'void';
  unitsWon: number;
  unitsRisked: number;
  gradedAt: Date;
}

/** Every counted pick's grade, in grading order: the record's periods, leagues and chart come from these. */
export async function listGrades(db: Executor, userId: number): Promise<GradeRow[]> {
  const rows = rowsOf<Omit<GradeRow, 'gradedAt'> & { gradedAt: Date | string }>(
    await db.execute(sql`
      select p.league, p.result, p.units_won::float8 as "unitsWon", p.units_risked::float8 as "unitsRisked",
        p.graded_at as "gradedAt"
      from picks p
      where p.user_id = ${userId} and p.graded_at is not null and ${COUNTED}
      order by p.graded_at, p.video_id`),
  );
  return rows.map((row) => ({ ...row, gradedAt: toDate(row.gradedAt) }));
}

export interface GradedPickRow {
  videoId: number;
  title: string;
  result: 'win' | 'loss' | 'push' | 'void';
  unitsWon: number;
  commitment: string;
  postedAt: Date;
  gradedAt: Date;
  parlay: boolean;
  sealed: string;
}

/** One page of the counted graded picks, newest grade first, with their sealed text (revealed once graded). */
export async function listGradedPicks(
  db: Executor,
  userId: number,
  page: { limit: number; offset: number },
): Promise<GradedPickRow[]> {
  const rows = rowsOf<GradedPickRow & { postedAt: Date | string; gradedAt: Date | string }>(
    await db.execute(sql`
      select p.video_id as "videoId", p.title, p.result, p.units_won::float8 as "unitsWon", p.commitment,
        p.posted_at as "postedAt", p.graded_at as "gradedAt", p.parlay, p.sealed
      from picks p
      where p.user_id = ${userId} and p.graded_at is not null and ${COUNTED}
      order by p.graded_at desc, p.video_id desc
      limit ${page.limit} offset ${page.offset}`),
  );
  return rows.map((row) => ({ ...row, postedAt: toDate(row.postedAt), gradedAt: toDate(row.gradedAt) }));
}

export interface OpenPickRow {
  videoId: number;
  title: string;
  commitment: string;
  postedAt: Date;
  locksAt: Date;
  legCount: number;
}

/** Picks not yet graded and still on sale, newest first. */
export async function listOpenPicks(db: Executor, userId: number, limit: number): Promise<OpenPickRow[]> {
  const rows = rowsOf<OpenPickRow & { postedAt: Date | string; locksAt: Date | string }>(
    await db.execute(sql`
      select p.video_id as "videoId", p.title, p.commitment, p.posted_at as "postedAt",
        p.locks_at as "locksAt", p.leg_count as "legCount"
      from picks p
      where p.user_id = ${userId} and p.result is null and p.removed is null
      order by p.posted_at desc, p.video_id desc
      limit ${limit}`),
  );
  return rows.map((row) => ({ ...row, postedAt: toDate(row.postedAt), locksAt: toDate(row.locksAt) }));
}

/** The capper's videos without a pick (unverified) and picks removed by moderation. */
export async function countOthers(
  db: Executor,
  userId: number,
): Promise<{ unverified: number; removedByModeration: number }> {
  const [row] = rowsOf<{ unverified: number; removedByModeration: number }>(
    await db.execute(sql`
      select
        (select count(*)::int from videos v
          where v.user_id = ${userId} and not exists (select 1 from picks p where p.video_id = v.id)) as unverified,
        (select count(*)::int from picks p
          where p.user_id = ${userId} and p.removed = 'moderation') as "removedByModeration"`),
  );
  return row!;
}

/** A capper's totals over counted picks, as SQL sums them (exact: units are numeric(10,2)). */
export interface TotalsRow {
  userId: number;
  username: string;
  displayName: string | null;
  avatarUrl: string | null;
  wins: number;
  losses: number;
  pushes: number;
  voids: number;
  graded: number;
  unitsWon: number;
  unitsRisked: number;
}

const TOTALS = sql`
  count(*) filter (where p.result = 'win')::int as wins,
  count(*) filter (where p.result = 'loss')::int as losses,
  count(*) filter (where p.result = 'push')::int as pushes,
  count(*) filter (where p.result = 'void')::int as voids,
  count(p.result)::int as graded,
  coalesce(sum(p.units_won), 0)::float8 as "unitsWon",
  coalesce(sum(p.units_risked), 0)::float8 as "unitsRisked"`;

/** A capper's totals in one league and one age band of grading: 0 within 30 days, 1 within 90, 2 older. */
export interface BandTotalsRow extends TotalsRow {
  league: string;
  band: 0 | 1 | 2;
}

/**
 * Every capper's totals by league and age band, in one pass over the counted picks: each leaderboard
 * (period × league × sort × page) is then summed from these rows without another query.
 */
export async function listBandTotals(db: Executor, now: Date): Promise<BandTotalsRow[]> {
  const day30 = new Date(now.getTime() - 30 * 24 * 3600_000);
  const day90 = new Date(now.getTime() - 90 * 24 * 3600_000);
  return rowsOf<BandTotalsRow>(
    await db.execute(sql`
      with t as (
        select p.user_id, p.league,
          case when p.graded_at >= ${day30} then 0 when p.graded_at >= ${day90} then 1 else 2 end as band,
          ${TOTALS}
        from picks p
        where ${COUNTED}
        group by 1, 2, 3
      )
      select t.user_id as "userId", t.league, t.band, t.wins, t.losses, t.pushes, t.voids, t.graded,
        t."unitsWon", t."unitsRisked", u.username, u.display_name as "displayName", u.avatar_url as "avatarUrl"
      from t join users u on u.id = t.user_id`),
  );
}

/** All-time totals of these cappers (by username, any case); a capper with no graded pick has zeros. */
export async function totalsOf(db: Executor, usernames: readonly string[]): Promise<TotalsRow[]> {
  const lowered = usernames.map((name) => name.toLowerCase());
  return rowsOf<TotalsRow>(
    await db.execute(sql`
      select u.id as "userId", u.username, u.display_name as "displayName", u.avatar_url as "avatarUrl", ${TOTALS}
      from users u
      left join picks p on p.user_id = u.id and ${COUNTED}
      where lower(u.username) = any(${sql.param(lowered)}::text[])
      group by u.id`),
  );
}
