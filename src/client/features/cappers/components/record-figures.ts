import { formatUnits } from '#common/pick-grading.js';
import type { RecordSummary } from '#common/pick-grading.js';

export { formatUnits };

/** '58.3%', or a dash before the first win or loss. */
export const formatWinPct = (record: RecordSummary) => (record.winPct === null ? '—' : `${record.winPct}%`);

/** '+12.5%', '-3.0%', or a dash while nothing was risked. */
export function formatRoi(record: RecordSummary): string {
  if (record.roi === null) return '—';
  const sign = record.roi > 0 ? '+' : record.roi < 0 ? '-' : '';
  return `${sign}${Math.abs(record.roi).toFixed(1)}%`;
}

/** Wins-losses-pushes, as bettors write it. */
export const formatWlp = (record: RecordSummary) => `${record.wins}-${record.losses}-${record.pushes}`;

export const picksCount = (count: number) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? 'pick' : 'picks'}`;

/** Text colour for a figure that can be up or down. */
export const trendClass = (value: number | null) =>
  value === null || value === 0 ? 'text-foreground' : value > 0 ? 'text-emerald-700' : 'text-destructive';
