// The pick form's pure parts (docs/decisions/020, 025): a leg as the form holds it (text fields),
// checked by the same LegInputSchema the server uses, whether it is bound to the market or self-reported,
// its one-line summary, and the datetime-local <-> ISO conversion.
import { PRICED_MARKETS } from '#common/market.js';
import { decimalOdds } from '#common/odds.js';
import type { EventPrices } from '#common/schemas/pick-views.js';
import {
  contradictionProblem,
  gameKey,
  LEAGUE_MESSAGE,
  LegInputSchema,
  legsStartInFuture,
  ODDS_REQUIRED_MESSAGE,
  parseOddsText,
  selfReportedStartProblem,
  START_IN_FUTURE_MESSAGE,
  UNITS_MESSAGE,
  type League,
  type Leg,
  type Market,
} from '#common/schemas/picks.js';

export const MARKET_LABELS: Record<Market, string> = {
  moneyline: 'Moneyline',
  spread: 'Spread',
  total: 'Total (over/under)',
  prop: 'Prop',
  other: 'Other',
};

export const EVENT_REQUIRED_MESSAGE = 'Choose a game from the list, or add one';
export const MARKET_EVENT_MESSAGE = "Choose a game from the market's list";
export const MARKET_PRICE_MESSAGE = "Choose one of the market's prices";
export const SELF_REPORTED_TEXT = 'Self-reported: shown on your profile, never counted in your record';

/**
 * Whether a leg is bound to the market (docs/decisions/025): a moneyline, spread or total in a league the
 * market follows is on a market game at a market price; anything else is self-reported.
 */
export function followsMarket(
  leg: { league: string; market: Market },
  marketLeagues: readonly string[],
): boolean {
  return (PRICED_MARKETS as readonly string[]).includes(leg.market) && marketLeagues.includes(leg.league);
}

/** Spread and total take a line; a moneyline has none, and a prop's terms are in its text. */
export function marketHasLine(market: Market): boolean {
  return market === 'spread' || market === 'total';
}

/** Moneyline and spread are on one of the two teams. */
export function marketOnTeam(market: Market): boolean {
  return market === 'moneyline' || market === 'spread';
}

const pad = (value: number, size = 2) => String(Math.trunc(Math.abs(value))).padStart(size, '0');
const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A datetime-local value (wall time) read at `offsetMinutes` east of UTC: '2030-06-01T19:30:00+02:00'. */
export function withOffset(local: string, offsetMinutes: number): string | null {
  const match = LOCAL_INPUT.exec(local);
  if (!match) return null;
  const [, year, month, day, hour, minute, second = '00'] = match;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = `${sign}${pad(offsetMinutes / 60)}:${pad(offsetMinutes % 60)}`;
  return `${year}-${month}-${day}T${hour}:${minute}:${second}${offset}`;
}

/** The browser's wall time as ISO-8601 with the browser's offset on that date (summer time included). */
export function localInputToIso(local: string): string | null {
  if (!LOCAL_INPUT.test(local)) return null;
  // A date-time without an offset is local time (ECMA-262 Date.parse).
  const date = new Date(local);
  if (!Number.isFinite(date.getTime())) return null;
  return withOffset(local, -date.getTimezoneOffset());
}

/** An ISO time as the datetime-local value of the browser's zone, to the minute. */
export function isoToLocalInput(iso: string): string {
  const date = new Date(iso);
  if (!Number.isFinite(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Signed with a true minus sign, as a line or odds are printed: '−3.5', '+4.5'. */
export function signed(value: number): string {
  return `${value < 0 ? '−' : '+'}${Math.abs(value)}`;
}

/** '1u', '1.5u', '0.1u'. */
export function formatStake(units: number): string {
  return `${Math.round(units * 10) / 10}u`;
}

/** What the leg is on: 'Lakers −3.5', 'Lakers ML', 'Over 220.5', or a prop's own text. */
export function legSideText(leg: Pick<Leg, 'market' | 'side' | 'line'>): string {
  switch (leg.market) {
    case 'moneyline':
      return `${leg.side} ML`;
    case 'spread':
      return leg.line === null ? leg.side : `${leg.side} ${leg.line === 0 ? 'PK' : signed(leg.line)}`;
    case 'total': {
      const side = leg.side.charAt(0).toUpperCase() + leg.side.slice(1).toLowerCase();
      return leg.line === null ? side : `${side} ${leg.line}`;
    }
    default:
      return leg.line === null ? leg.side : `${leg.side} (${signed(leg.line)})`;
  }
}

/** The compact row: 'NBA · Celtics @ Lakers · Lakers −3.5 (−110) · 1u' (away @ home, as books print it). */
export function legSummary(leg: Leg, { withStake = true }: { withStake?: boolean } = {}): string {
  const price = leg.odds === null ? 'best price' : signed(leg.odds);
  const parts = [leg.league, `${leg.away} @ ${leg.home}`, `${legSideText(leg)} (${price})`];
  if (withStake) parts.push(formatStake(leg.units));
  return parts.join(' · ');
}

/** When the game starts, short: 'Tue, Jun 3, 7:30 PM' (the browser's zone unless one is given). */
export function formatStart(iso: string, options: { timeZone?: string; locale?: string } = {}): string {
  return new Intl.DateTimeFormat(options.locale ?? 'en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: options.timeZone,
  }).format(new Date(iso));
}

/** The leg form's fields, as typed (text) before they are checked. */
export interface LegDraft {
  league: League | '';
  /** A known event's id, 'new' for a game the capper adds, null before a choice. */
  eventId: number | 'new' | null;
  home: string;
  away: string;
  /** datetime-local value, the browser's wall time. */
  startsLocal: string;
  market: Market;
  side: string;
  line: string;
  odds: string;
  units: string;
}

export type LegField =
  'league' | 'event' | 'home' | 'away' | 'startsAt' | 'market' | 'side' | 'line' | 'odds' | 'units';
export type LegFieldErrors = Partial<Record<LegField, string>>;

export function emptyDraft(units = 1): LegDraft {
  return {
    league: '',
    eventId: null,
    home: '',
    away: '',
    startsLocal: '',
    market: 'moneyline',
    side: '',
    line: '',
    odds: '',
    units: String(units),
  };
}

/** A saved leg back into the form; the event is matched against the known ones by the caller. */
export function draftFromLeg(leg: Leg, eventId: number | 'new'): LegDraft {
  return {
    league: leg.league,
    eventId,
    home: leg.home,
    away: leg.away,
    startsLocal: isoToLocalInput(leg.startsAt),
    market: leg.market,
    side: leg.side,
    line: leg.line === null ? '' : String(leg.line),
    odds: leg.odds === null ? '' : leg.odds > 0 ? `+${leg.odds}` : String(leg.odds),
    units: String(leg.units),
  };
}

/** Whether a known event is the leg's game: the server's own key (league, teams ignoring case, start). */
export function sameGame(
  event: { league: string; home: string; away: string; startsAt: string },
  leg: Pick<Leg, 'league' | 'home' | 'away' | 'startsAt'>,
): boolean {
  return (
    event.league === leg.league &&
    event.home.toLowerCase() === leg.home.toLowerCase() &&
    event.away.toLowerCase() === leg.away.toLowerCase() &&
    Date.parse(event.startsAt) === Date.parse(leg.startsAt)
  );
}

/**
 * Checks a draft with LegInputSchema (the server's rules and messages) and the start rules: a market leg's
 * game is one of the market's and starts in the future, a self-reported one starts within
 * SELF_REPORTED_MAX_DAYS and names its odds. A known event's teams and time are not typed by the capper,
 * so their problems are the event choice's.
 */
export function validateDraft(
  draft: LegDraft,
  now: Date,
  marketLeagues: readonly string[],
): { ok: true; leg: Leg } | { ok: false; errors: LegFieldErrors } {
  const errors: LegFieldErrors = {};
  const market =
    draft.league !== '' && followsMarket({ league: draft.league, market: draft.market }, marketLeagues);
  if (!draft.league) errors.league = LEAGUE_MESSAGE;
  if (draft.league && draft.eventId === null)
    errors.event = market ? MARKET_EVENT_MESSAGE : EVENT_REQUIRED_MESSAGE;
  if (market && draft.eventId === 'new') errors.event = MARKET_EVENT_MESSAGE;
  const known = typeof draft.eventId === 'number';
  // A market leg's side and line are one of the prices listed: said so rather than the schema's words.
  if (market && known && !draft.side.trim()) errors.side = MARKET_PRICE_MESSAGE;
  const oddsText = draft.odds.trim();
  const result = LegInputSchema.safeParse({
    league: draft.league || undefined,
    home: draft.home,
    away: draft.away,
    startsAt: draft.startsLocal ? (localInputToIso(draft.startsLocal) ?? draft.startsLocal) : undefined,
    market: draft.market,
    side: draft.side,
    line: marketHasLine(draft.market) ? draft.line.trim() : '',
    // Typed as text ('+150'); the schema takes a JSON integer, so the form reads it first. Left empty on a
    // market leg, the leg takes the best price among books when the pick is posted.
    odds: oddsText === '' ? null : (parseOddsText(oddsText) ?? oddsText),
    eventId: typeof draft.eventId === 'number' ? draft.eventId : null,
    units: draft.units.trim() === '' ? undefined : draft.units.trim(),
  });
  if (!result.success) {
    for (const issue of result.error.issues) {
      const path = String(issue.path[0] ?? '');
      let field = (path || 'event') as LegField;
      if (known && (field === 'home' || field === 'away' || field === 'startsAt')) field = 'event';
      // An empty league has its own message already; and no game means no teams to complain about.
      if (field === 'league' || (draft.eventId === null && ['home', 'away', 'startsAt'].includes(field)))
        continue;
      errors[field] ??= issue.message;
    }
  } else if (market) {
    if (!legsStartInFuture([result.data], now)) errors.event ??= START_IN_FUTURE_MESSAGE;
  } else {
    const start = selfReportedStartProblem(result.data, now);
    if (start) errors[known ? 'event' : 'startsAt'] ??= start;
    if (result.data.odds === null) errors.odds ??= ODDS_REQUIRED_MESSAGE;
  }
  if (!market && oddsText === '' && !result.success) errors.odds ??= ODDS_REQUIRED_MESSAGE;
  if (!result.success || Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, leg: result.data };
}

/** A start as the server keys it: UTC, to the second ('2030-06-04T02:30:00Z'); unreadable text as it is. */
function utcSeconds(iso: string): string {
  const time = Date.parse(iso);
  return Number.isFinite(time) ? new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z') : iso;
}

type KeyedLeg = Pick<Leg, 'league' | 'home' | 'away' | 'startsAt' | 'market' | 'side'>;

/**
 * Why these legs cannot be one pick (both sides of a game, over and under, two legs on one game and
 * market), in the server's words; null when they can. A game is keyed by league, teams and start, which
 * a market game's legs carry too, so a leg read back from a sealed pick meets a newly chosen one.
 */
export function legsContradiction(legs: readonly KeyedLeg[]): string | null {
  return contradictionProblem(
    legs.map((leg) => ({
      key: gameKey({ ...leg, startsAt: utcSeconds(leg.startsAt) }),
      market: leg.market,
      side: leg.side,
    })),
  );
}

/** The draft as far as a contradiction can be told: its game, market and side; null while one is missing. */
export function draftKey(draft: LegDraft): KeyedLeg | null {
  if (!draft.league || !draft.home.trim() || !draft.away.trim() || !draft.side.trim()) return null;
  const startsAt = localInputToIso(draft.startsLocal);
  if (!startsAt) return null;
  return {
    league: draft.league,
    home: draft.home,
    away: draft.away,
    startsAt,
    market: draft.market,
    side: draft.side,
  };
}

/** One side at one line, as GET /api/events/{id}/prices offers it: the best price among books. */
export type Offer = EventPrices['moneyline'][number];

/** A priced market's offers of a game, or none for a market the market does not price. */
export function offersFor(prices: EventPrices | undefined, market: Market): readonly Offer[] {
  if (!prices || !(PRICED_MARKETS as readonly string[]).includes(market)) return [];
  return prices[market as (typeof PRICED_MARKETS)[number]];
}

/** The offer a draft's side and line name, if the market offers it. */
export function offerOf(
  offers: readonly Offer[],
  draft: Pick<LegDraft, 'market' | 'side' | 'line'>,
): Offer | undefined {
  const line = marketHasLine(draft.market) && draft.line.trim() !== '' ? Number(draft.line) : null;
  return offers.find(
    (offer) => offer.side.toLowerCase() === draft.side.toLowerCase() && (offer.line ?? null) === line,
  );
}

/**
 * What the server would refuse of a market leg at these prices (docs/decisions/025): a side and line no
 * book offers, or odds better than the best among books. null when the leg is fine, or nothing is chosen yet.
 */
export function marketPriceProblem(
  offers: readonly Offer[],
  draft: Pick<LegDraft, 'market' | 'side' | 'line' | 'odds'>,
): { field: 'side' | 'odds'; message: string } | null {
  if (!offers.length || !draft.side.trim()) return null;
  const offer = offerOf(offers, draft);
  if (!offer)
    return {
      field: 'side',
      message: "No book offers this side and line now: choose one of the market's prices",
    };
  const odds = parseOddsText(draft.odds);
  if (odds === null || Math.abs(odds) < 100) return null;
  if (decimalOdds(odds) > decimalOdds(offer.odds) + 1e-12)
    return {
      field: 'odds',
      message: `${signed(odds)} beats the market's best price, ${signed(offer.odds)} at ${offer.book}: enter that price or a worse one, or leave it empty`,
    };
  return null;
}

/** A parlay's shared stake as typed, checked by the leg schema's own units rule. */
export function parseStake(
  leg: Leg,
  text: string,
): { ok: true; units: number } | { ok: false; message: string } {
  const result = LegInputSchema.safeParse({ ...leg, units: text.trim() === '' ? undefined : text.trim() });
  if (result.success) return { ok: true, units: result.data.units };
  const issue = result.error.issues.find((candidate) => candidate.path[0] === 'units');
  return { ok: false, message: issue?.message ?? UNITS_MESSAGE };
}

/** The sealed legs the server answers (GET /api/picks/{id}/legs) as the form's legs; null if one is unreadable. */
export function legsFromSealed(legs: readonly unknown[]): Leg[] | null {
  const result = LegInputSchema.array().safeParse(legs);
  return result.success ? result.data : null;
}
