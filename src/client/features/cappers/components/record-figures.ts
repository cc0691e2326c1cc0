import { formatClv } from '#common/clv.js';
import { formatUnits } from '#common/pick-grading.js';
import type { RecordSummary } from '#common/pick-grading.js';

export { formatClv, formatUnits };

/** What the record's CLV means, in a sentence a bettor reads (docs/decisions/025 'Closing line value'). */
export const CLV_EXPLANATION =
  "Closing line value (CLV) compares the price each bet was taken at with the market's last price before the game, with the books' margin taken out. Beating the close again and again is the surest sign of skill: results swing with luck, the closing price does not.";

/** '58.3%', or a dash before the first win or loss. */
export const formatWinPct = (record: RecordSummary) => (record.winPct === null ? '—' : `${record.winPct}%`);

/** '+12.5%', '-3.0%', or a dash while nothing was risked. */
export function formatRoi(record: RecordSummary): string {
  if (record.roi === null) return '—';
  const sign = record.roi > 0 ? '+' : record.roi < 0 ? '-' : '';
  return `${sign}${Math.abs(record.roi).toFixed(1)}%`;
}

/** Wins-losses-pushes of bets, as bettors write it. */
export const formatWlp = (record: RecordSummary) => `${record.wins}-${record.losses}-${record.pushes}`;

export const picksCount = (count: number) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? 'pick' : 'picks'}`;

export const betsCount = (count: number) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? 'bet' : 'bets'}`;

/** '42 bets in 30 picks': a record counts bets (each leg of a straight pick, a parlay as one). */
export const betsInPicks = (record: RecordSummary) =>
  `${betsCount(record.graded)} in ${picksCount(record.picks)}`;

/** The average CLV per bet, '+1.85%', or a dash before the first bet with a closing price. */
export const formatRecordClv = (record: RecordSummary) => (record.clv ? formatClv(record.clv.average) : '—');

/** '58.3% of 40 beat the close', or nothing before the first. */
export const beatCloseText = (record: RecordSummary) =>
  record.clv
    ? `${record.clv.beatPct}% of ${betsCount(record.clv.bets)} beat the close`
    : 'No closing prices yet';

/** Text colour for a figure that can be up or down. */
export const trendClass = (value: number | null) =>
  value === null || value === 0 ? 'text-foreground' : value > 0 ? 'text-emerald-700' : 'text-destructive';

/** A CLV's colour as printed (two decimals): '+0.00%' is neither up nor down. */
export const clvTrendClass = (record: RecordSummary) =>
  trendClass(record.clv ? Math.round(record.clv.average * 100) / 100 : null);
