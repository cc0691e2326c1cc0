// A log entry's title as people read it (the pick page's entries, the /log page): what happened, in product
// words, from the entry's own fields only, so the same bytes read the same everywhere.
import { resultText } from '../pick-result-text.js';
import type { LogEntry, LoggedOutcome } from './entry.js';

/** 'Knicks 112 – Celtics 108' (away first, as the game is written 'away at home'), or what became of it. */
export function outcomeTitle(game: { home: string; away: string }, outcome: LoggedOutcome): string {
  if (outcome.status === 'final' && outcome.homeScore !== null && outcome.awayScore !== null)
    return `${game.away} ${outcome.awayScore} – ${game.home} ${outcome.homeScore}`;
  return `${game.away} at ${game.home} ${outcome.status}`;
}

const LEG_RESULT: Record<string, string> = { win: 'Won', loss: 'Lost', push: 'Push', void: 'Void' };

export function entryTitle(entry: LogEntry): string {
  switch (entry.type) {
    case 'posted':
      return `Sealed — version ${'version' in entry && entry.version ? entry.version : 1}`;
    case 'revised':
      return `Revised — version ${'version' in entry && entry.version ? entry.version : 2}`;
    case 'graded':
      if (!('result' in entry) || entry.result == null) return 'Grade withdrawn';
      return `Graded: ${resultText(entry.result, entry.unitsWon)}`;
    case 'removed':
      return 'reason' in entry && entry.reason === 'moderation'
        ? 'Removed by moderation'
        : 'Removed from sale by the capper';
    case 'settled':
      return 'home' in entry ? `Settled: ${outcomeTitle(entry, entry)}` : 'Settled';
    case 'corrected':
      if ('leg' in entry)
        return `Corrected leg ${entry.leg + 1}: ${LEG_RESULT[entry.before] ?? entry.before} → ${LEG_RESULT[entry.after] ?? entry.after}`;
      return `Corrected score: ${outcomeTitle(entry, entry.before)} → ${outcomeTitle(entry, entry)}`;
    case 'closed':
      return 'home' in entry ? `Closing prices: ${entry.away} at ${entry.home}` : 'Closing prices';
  }
}
