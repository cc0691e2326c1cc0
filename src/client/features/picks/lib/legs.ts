// The pick form's pure parts (issue 14): a leg as the form holds it (text fields), checked by the same
// LegInputSchema the server uses, its one-line summary, and the datetime-local <-> ISO conversion.
import {
  LEAGUE_MESSAGE,
  LegInputSchema,
  parseOddsText,
  legsStartInFuture,
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
  const price = leg.odds === null ? 'market price' : signed(leg.odds);
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
 * Checks a draft with LegInputSchema (the server's rules and messages) and the start-in-the-future rule.
 * A known event's teams and time are not typed by the capper, so their problems are the event choice's.
 */
export function validateDraft(
  draft: LegDraft,
  now: Date,
): { ok: true; leg: Leg } | { ok: false; errors: LegFieldErrors } {
  const errors: LegFieldErrors = {};
  if (!draft.league) errors.league = LEAGUE_MESSAGE;
  if (draft.league && draft.eventId === null) errors.event = EVENT_REQUIRED_MESSAGE;
  const known = typeof draft.eventId === 'number';
  const result = LegInputSchema.safeParse({
    league: draft.league || undefined,
    home: draft.home,
    away: draft.away,
    startsAt: draft.startsLocal ? (localInputToIso(draft.startsLocal) ?? draft.startsLocal) : undefined,
    market: draft.market,
    side: draft.side,
    line: marketHasLine(draft.market) ? draft.line.trim() : '',
    // Typed as text ('+150'); the schema takes a JSON integer, so the form reads it first.
    odds: draft.odds.trim() === '' ? undefined : (parseOddsText(draft.odds) ?? draft.odds.trim()),
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
  } else if (!legsStartInFuture([result.data], now)) {
    errors[known ? 'event' : 'startsAt'] = START_IN_FUTURE_MESSAGE;
  }
  if (!result.success || Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, leg: result.data };
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
