import { sql } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { rowsOf } from '#server/db/rows.js';

/** Sales and views of one capper per day or week (UTC), the empty ones included, oldest first. */
export async function seriesOfCapper(db: Executor, userId: number, unit: 'day' | 'week', buckets: number) {
  const u = sql.raw(`'${unit}'`);
  const step = sql.raw(`'1 ${unit}'`);
  const result = await db.execute(sql`
    with series as (
      select generate_series(
        date_trunc(${u}, now() at time zone 'utc') - (${buckets - 1} * interval ${step}),
        date_trunc(${u}, now() at time zone 'utc'),
        interval ${step}
      ) as start
    ),
    s as (
      select date_trunc(${u}, created_at at time zone 'utc') as start, count(*)::int as n, sum(amount_cents)::bigint as cents
      from sales where seller_id = ${userId}
        and created_at >= (date_trunc(${u}, now() at time zone 'utc') - (${buckets - 1} * interval ${step})) at time zone 'utc'
      group by 1
    ),
    v as (
      select date_trunc(${u}, vv.created_at at time zone 'utc') as start, count(*)::int as n
      from video_views vv join videos on videos.id = vv.video_id
      where videos.user_id = ${userId}
        and vv.created_at >= (date_trunc(${u}, now() at time zone 'utc') - (${buckets - 1} * interval ${step})) at time zone 'utc'
      group by 1
    )
    select to_char(series.start, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as start,
           coalesce(s.n, 0) as sales, coalesce(s.cents, 0) as cents, coalesce(v.n, 0) as views
    from series left join s on s.start = series.start left join v on v.start = series.start
    order by series.start`);
  return rowsOf<{ start: string; sales: number; cents: string | number; views: number }>(result);
}

/** Per-video figures for one capper's table: lifetime views, sales and revenue. */
export async function videoFiguresOfCapper(db: Executor, userId: number) {
  const result = await db.execute(sql`
    select videos.id, videos.title, videos.views,
           count(sales.id)::int as sales, coalesce(sum(sales.amount_cents), 0)::bigint as cents
    from videos left join sales on sales.video_id = videos.id
    where videos.user_id = ${userId}
    group by videos.id
    order by coalesce(sum(sales.amount_cents), 0) desc, videos.id desc
    limit 500`);
  return rowsOf<{ id: number; title: string; views: number; sales: number; cents: string | number }>(result);
}
