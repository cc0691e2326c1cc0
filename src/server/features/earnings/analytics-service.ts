import type { Db } from '#server/db/client.js';
import { centsToDollars } from '#common/money.js';
import { ANALYTICS_RANGES, type Analytics } from '#common/schemas/analytics.js';
import { seriesOfCapper, videoFiguresOfCapper } from './analytics-repository.js';

/**
 * The capper's analytics page (docs/product-decisions.md 'Screens the spec does not show'): sales and views over
 * time, and a per-video table.
 */
export async function getAnalytics(db: Db, userId: number, range: 'day' | 'week'): Promise<Analytics> {
  const [series, figures] = await Promise.all([
    seriesOfCapper(db, userId, range, ANALYTICS_RANGES[range].buckets),
    videoFiguresOfCapper(db, userId),
  ]);
  const buckets = series.map((row) => ({
    start: row.start,
    sales: Number(row.sales),
    revenue: centsToDollars(Number(row.cents)),
    views: Number(row.views),
  }));
  const videos = figures.map((row) => {
    const views = Number(row.views);
    const sales = Number(row.sales);
    return {
      id: row.id,
      title: row.title,
      views,
      sales,
      revenue: centsToDollars(Number(row.cents)),
      conversion: views > 0 ? Math.round((sales / views) * 10_000) / 10_000 : 0,
    };
  });
  return {
    range,
    buckets,
    videos,
    totals: {
      views: videos.reduce((sum, v) => sum + v.views, 0),
      sales: videos.reduce((sum, v) => sum + v.sales, 0),
      revenue: centsToDollars(figures.reduce((sum, v) => sum + Number(v.cents), 0)),
    },
  };
}
