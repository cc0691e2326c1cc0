// How a pick's times, odds, lines and legs read on the page (docs/decisions/020, 025).
import { formatClv } from '#common/clv.js';
import type { SealedLeg } from '#common/pick-seal.js';
import type { LegState } from '#common/schemas/pick-views.js';

export { formatClv };

const PICK_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** 'Nov 25, 2026, 6:30 PM' in the viewer's time zone. */
export function formatPickTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : PICK_TIME.format(date);
}

/** American odds with their sign: '+150', '-110'. */
export function formatOdds(odds: number): string {
  return odds > 0 ? `+${odds}` : String(odds);
}

const signed = (line: number) => (line > 0 ? `+${line}` : String(line));

/** The bet of one leg as a bettor writes it: 'Lakers -3.5', 'Lakers moneyline', 'Over 220.5', a prop's text. */
export function describeBet(leg: SealedLeg): string {
  switch (leg.market) {
    case 'moneyline':
      return `${leg.side} moneyline`;
    case 'spread':
      return leg.line === null ? leg.side : `${leg.side} ${signed(leg.line)}`;
    case 'total': {
      const side = leg.side.charAt(0).toUpperCase() + leg.side.slice(1);
      return leg.line === null ? side : `${side} ${leg.line}`;
    }
    default:
      return leg.side;
  }
}

export function formatStake(units: number): string {
  return `${units} ${units === 1 ? 'unit' : 'units'}`;
}

/** How old a snapshot is, as a person says it: 'just now', '1 min ago', '12 min ago', '2 h ago'. */
export function formatAge(iso: string, now: Date): string {
  const seconds = Math.max(0, (now.getTime() - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/**
 * The Odds API's bookmaker keys as the books write their names. A sealed price names its book by key (the
 * sealed bytes never change); an unknown key is shown as it is.
 */
const BOOK_TITLES: Record<string, string> = {
  draftkings: 'DraftKings',
  fanduel: 'FanDuel',
  betmgm: 'BetMGM',
  williamhill_us: 'Caesars',
  betrivers: 'BetRivers',
  bovada: 'Bovada',
  lowvig: 'LowVig.ag',
  betonlineag: 'BetOnline.ag',
  mybookieag: 'MyBookie.ag',
  betus: 'BetUS',
  espnbet: 'ESPN BET',
  fanatics: 'Fanatics',
  ballybet: 'Bally Bet',
  hardrockbet: 'Hard Rock Bet',
  betparx: 'betPARX',
  fliff: 'Fliff',
  pinnacle: 'Pinnacle',
};

export function bookTitle(key: string): string {
  return BOOK_TITLES[key] ?? key;
}

/**
 * A market leg's price evidence: 'Best price −110 at DraftKings, prices of Nov 28, 9:08 AM', or, when the
 * capper took a worse price, what was taken beside the market's best. null for a self-reported leg.
 */
export function priceEvidence(leg: SealedLeg): string | null {
  if (!leg.game || !leg.price) return null;
  const best = `${formatOdds(leg.price.odds)} at ${bookTitle(leg.price.book)}`;
  const when = `prices of ${formatPickTime(leg.price.at)}`;
  return leg.odds === leg.price.odds
    ? `Best price among books: ${best}, ${when}`
    : `Taken at ${formatOdds(leg.odds)}; the best among books was ${best}, ${when}`;
}

export type LegStatus = 'open' | 'under way' | 'win' | 'loss' | 'push' | 'void';

/** Where a leg stands: its grade, else open until its start and under way after. */
export function legStatus(leg: Pick<SealedLeg, 'startsAt'>, state: LegState, now: Date): LegStatus {
  if (state.result) return state.result;
  return Date.parse(leg.startsAt) > now.getTime() ? 'open' : 'under way';
}

export const LEG_STATUS_LABEL: Record<LegStatus, string> = {
  open: 'Open',
  'under way': 'Under way',
  win: 'Won',
  loss: 'Lost',
  push: 'Push',
  void: 'Void',
};

/** The game's outcome as the scoreboard has it, away team first: 'Final: Celtics 99, Lakers 104'. */
export function outcomeText(leg: Pick<SealedLeg, 'home' | 'away'>, state: LegState): string | null {
  if (state.eventStatus === 'postponed') return 'Postponed';
  if (state.eventStatus === 'cancelled') return 'Cancelled';
  if (state.eventStatus === 'final' && state.homeScore !== null && state.awayScore !== null)
    return `Final: ${leg.away} ${state.awayScore}, ${leg.home} ${state.homeScore}`;
  return null;
}

/** Text colour for a CLV, as the record's figures colour theirs: green above zero, red below. */
export function clvClass(clv: number): string {
  const rounded = Math.round(clv * 100) / 100;
  return rounded > 0 ? 'text-emerald-700' : rounded < 0 ? 'text-destructive' : 'text-foreground';
}
