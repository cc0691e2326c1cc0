// How the log's entries read on the page: product words for the types, times in the viewer's zone.
import type { LogEntryType } from '#common/pick-log/index.js';

/** An entry's number as the page writes it: '#1,234'. */
export function entryLabel(index: number): string {
  return `#${index.toLocaleString('en-US')}`;
}

export const ENTRY_TYPE_LABEL: Record<LogEntryType, string> = {
  posted: 'Posted',
  revised: 'Revised',
  graded: 'Graded',
  removed: 'Removed',
  settled: 'Result',
  corrected: 'Corrected',
  closed: 'Closing prices',
};

/** What an evidence entry says of its game: 'Celtics 112, Knicks 104 (final)', 'Knicks at Celtics'. */
export function gameOutcomeLabel(game: {
  home: string;
  away: string;
  status?: string;
  homeScore?: number | null;
  awayScore?: number | null;
}): string {
  if (game.status === 'final' && game.homeScore != null && game.awayScore != null)
    return `${game.away} ${game.awayScore}, ${game.home} ${game.homeScore} (final)`;
  if (game.status === 'postponed' || game.status === 'cancelled') return `${game.away} at ${game.home}: ${game.status}`;
  return `${game.away} at ${game.home}`;
}

// To the second: two entries a moment apart (a post and its quick revision) read apart.
const LOG_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

/** 'Nov 25, 2026, 6:30:05 PM' in the viewer's time zone; the ISO text if it does not parse. */
export function formatLogTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : LOG_TIME.format(date);
}
