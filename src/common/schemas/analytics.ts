import { z } from 'zod';

export const ANALYTICS_RANGES = { day: { buckets: 30 }, week: { buckets: 12 } } as const;

export const AnalyticsQuerySchema = z.object({
  range: z.enum(['day', 'week'], { error: "Range must be 'day' or 'week'" }).default('day'),
});

export interface AnalyticsBucket {
  /** Start of the day or week (UTC), ISO 8601. */
  start: string;
  sales: number;
  revenue: number;
  views: number;
}

export interface VideoAnalytics {
  id: number;
  title: string;
  views: number;
  sales: number;
  revenue: number;
  /** Sales per view, 0..1 (0 when there were no views). */
  conversion: number;
}

export interface Analytics {
  range: 'day' | 'week';
  buckets: AnalyticsBucket[];
  videos: VideoAnalytics[];
  totals: { views: number; sales: number; revenue: number };
}
