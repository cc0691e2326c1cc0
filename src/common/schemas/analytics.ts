import { z } from 'zod';

export const ANALYTICS_RANGES = { day: { buckets: 30 }, week: { buckets: 12 } } as const;

export const AnalyticsQuerySchema = z.object({
  range: z.enum(['day', 'week'], { error: "Range must be 'day' or 'week'" }).default('day'),
});

export const AnalyticsBucketSchema = z.object({
  /** Start of the day or week (UTC), ISO 8601. */
  start: z.iso.datetime(),
  sales: z.int(),
  revenue: z.number(),
  views: z.int(),
});
export type AnalyticsBucket = z.infer<typeof AnalyticsBucketSchema>;

export const VideoAnalyticsSchema = z.object({
  id: z.int(),
  title: z.string(),
  views: z.int(),
  sales: z.int(),
  revenue: z.number(),
  conversion: z.number().meta({ description: 'Sales per view, 0..1 (0 when there were no views).' }),
});

/** GET /api/user/analytics: a capper's sales, revenue and views by day or week, and per video. */
export const AnalyticsSchema = z
  .object({
    range: z.enum(['day', 'week']),
    buckets: z.array(AnalyticsBucketSchema),
    videos: z.array(VideoAnalyticsSchema),
    totals: z.object({ views: z.int(), sales: z.int(), revenue: z.number() }),
  })
  .meta({ id: 'Analytics' });
export type Analytics = z.infer<typeof AnalyticsSchema>;
