// The market's rules for a leg (docs/decisions/025): its game is the provider's, its start the official one,
// its price no better than the best a book offered in a recent snapshot. And what comes in from the provider:
// games and prices written, starts that moved reported.
import { MAX_PRICE_AGE_SECONDS, type PricedMarket } from '#common/market.js';
import { decimalOdds } from '#common/odds.js';
import { isoSeconds, toHex } from '#common/pick-seal.js';
import { START_IN_FUTURE_MESSAGE, TEAM_SIDE_MESSAGE, type League } from '#common/schemas/picks.js';
import type { Executor } from '#server/db/client.js';
import { badRequest } from '#server/lib/http-errors.js';
import {
  closeGames,
  findMarketEvent,
  findMarketGamesByTeams,
  markFetched,
  marketGamesWithPrices,
  pricesOf,
  selfReportedEventId,
  setClosedEntries,
  setOutcomeEntries,
  takeStartedGames,
  upsertGames,
  writePriceChunk,
  type FetchKind,
  type MarketEventRow,
  type MovedStart,
  type SelfReportedGame,
  type SnapshotRow,
  type StartedGame,
} from './market-repository.js';
import { bestPrice, offeredLines, sideCode, type OfferedPrice, type SideCode } from './prices.js';
import type { MarketGame, PreparedOdds } from './provider.js';

// Reads the picks feature builds on: the market's games, their prices and schedule, each league's fetch times.
export {
  findMarketEvent,
  findMarketEventByGame,
  gamesAwaitingScores,
  leagueStates,
  listSchedule,
  marketGamesByIds,
  pricesOf,
  type FetchKind,
  type GameAwaitingScore,
  type GameStanding,
  type MarketEventRow,
  type MovedStart,
  type SelfReportedGame,
  type StartedGame,
} from './market-repository.js';

/** A leg as the capper sent it, before the market names its game and price. */
export interface LegRequest {
  league: League;
  home: string;
  away: string;
  startsAt: string;
  market: PricedMarket;
  side: string;
  line: number | null;
  /** Omitted: the best price now. */
  odds?: number | null | undefined;
  /** A game of GET /api/events, instead of the teams and start. */
  eventId?: number | null | undefined;
}

/** The price's evidence, sealed with the leg: the best price among books for its side and line. */
export interface PriceEvidence {
  book: string;
  odds: number;
  line: number | null;
  /** The snapshot's time. */
  at: string;
}

export interface BoundLeg {
  event: MarketEventRow;
  /** `<provider>:<game id>`: the game as an outsider can look it up. */
  game: string;
  /** The game's teams and official start, as the provider writes them. */
  home: string;
  away: string;
  startsAt: string;
  /** The team as the game writes it, or over / under. */
  side: string;
  line: number | null;
  odds: number;
  price: PriceEvidence;
  /** The book's display name, for messages and pages. */
  bookTitle: string;
}

/** A game and its latest prices read ahead for a posting's legs (marketGamesWithPrices). */
export interface LoadedGame {
  event: MarketEventRow;
  snapshot: SnapshotRow | undefined;
}

/** A posting's games and prices, read in one statement before its legs bind to them. */
export function loadGames(db: Executor, eventIds: readonly number[]): Promise<Map<number, LoadedGame>> {
  return marketGamesWithPrices(db, eventIds);
}

/** Prices older than MAX_PRICE_AGE_SECONDS: the caller fetches the league's again, then binds again. */
export class StalePricesError extends Error {
  constructor(
    readonly league: League,
    readonly takenAt: Date | null,
  ) {
    super(`The ${league} prices are out of date`);
    this.name = 'StalePricesError';
  }
}

const signed = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(value)}`;

function sideText(market: PricedMarket, side: string, line: number | null): string {
  if (market === 'moneyline') return `${side} moneyline`;
  if (market === 'total') return `${side === 'over' ? 'Over' : 'Under'} ${line ?? ''}`.trim();
  return line === null ? side : `${side} ${line === 0 ? 'PK' : signed(line)}`;
}

const offerText = (market: PricedMarket, offer: OfferedPrice) =>
  `${market === 'moneyline' || offer.point === null ? '' : `${market === 'spread' ? signed(offer.point) : offer.point} `}(${signed(offer.price)} at ${offer.title})`;

/** The game a leg names: by id from the schedule, or by its teams near the start it gives. */
async function gameOf(db: Executor, leg: LegRequest, loaded?: LoadedGame): Promise<MarketEventRow> {
  if (leg.eventId != null) {
    const event = loaded ? loaded.event : await findMarketEvent(db, leg.eventId);
    if (!event || event.league !== leg.league)
      throw badRequest(`No ${leg.league} game ${leg.eventId} on the market: choose a game from the list.`);
    return event;
  }
  const given = new Date(leg.startsAt);
  const [event] = await findMarketGamesByTeams(db, leg, given);
  if (!event)
    throw badRequest(
      `No ${leg.league} game between ${leg.away} and ${leg.home} on the market within 24 hours of ${isoSeconds(given)}: choose a game from the list.`,
    );
  if (event.startsAt.getTime() !== given.getTime())
    throw badRequest(
      `${event.away} at ${event.home} starts at ${isoSeconds(event.startsAt)} (the market's official start), not ${isoSeconds(given)}.`,
    );
  return event;
}

/**
 * A self-reported leg (a prop) on a game the market lists must give the game's official start, so that it
 * locks and closes sales when the game really starts: a 400 naming that start otherwise.
 */
export async function checkOfficialStart(
  db: Executor,
  leg: Pick<LegRequest, 'league' | 'home' | 'away' | 'startsAt'>,
): Promise<void> {
  const given = new Date(leg.startsAt);
  const [event] = await findMarketGamesByTeams(db, leg, given);
  if (event && event.startsAt.getTime() !== given.getTime())
    throw badRequest(
      `${event.away} at ${event.home} starts at ${isoSeconds(event.startsAt)} (the market's official start), not ${isoSeconds(given)}.`,
    );
}

/**
 * Binds a moneyline, spread or total leg to its market game and price (docs/decisions/025 'Rules'): the
 * game by id or by its teams (any case, either order) at its official start; the side by the game's own
 * team names; the line one a book offers; the odds no better than the best price, or that price when none
 * are given. Throws 400s naming what the market says instead, or StalePricesError.
 */
export async function bindLeg(
  db: Executor,
  leg: LegRequest,
  now: Date,
  loaded?: Map<number, LoadedGame>,
): Promise<BoundLeg> {
  const preloaded = leg.eventId != null ? loaded?.get(leg.eventId) : undefined;
  const event = await gameOf(db, leg, preloaded);
  if (event.status !== 'scheduled' || event.startsAt <= now) throw badRequest(START_IN_FUTURE_MESSAGE);
  const side = sideCode(leg.market, leg.side, event);
  if (!side) throw badRequest(TEAM_SIDE_MESSAGE);
  const snapshot = preloaded ? preloaded.snapshot : await pricesOf(db, event.id);
  if (!snapshot || now.getTime() - snapshot.takenAt.getTime() > MAX_PRICE_AGE_SECONDS * 1000)
    throw new StalePricesError(leg.league, snapshot?.takenAt ?? null);
  const sideName = teamOrTotalSide(side, event);
  const line = leg.market === 'moneyline' ? null : leg.line;
  const best = bestPrice(snapshot.prices, leg.market, side, line);
  if (!best) {
    const offered = offeredLines(snapshot.prices, leg.market, side);
    throw badRequest(
      offered.length
        ? `No book offers ${sideText(leg.market, sideName, line)}: the market offers ${offered.map((o) => offerText(leg.market, o)).join(', ')}.`
        : `No book prices ${sideText(leg.market, sideName, null)} for this game yet.`,
    );
  }
  const odds = leg.odds ?? best.price;
  if (decimalOdds(odds) > decimalOdds(best.price) + 1e-12)
    throw badRequest(
      `${signed(odds)} beats the market's best price for ${sideText(leg.market, sideName, line)}: ${signed(best.price)} at ${best.title} (prices of ${isoSeconds(snapshot.takenAt)}).`,
    );
  return {
    event,
    game: `${event.provider}:${event.gameId}`,
    home: event.home,
    away: event.away,
    startsAt: isoSeconds(event.startsAt),
    side: sideName,
    line,
    odds,
    price: { book: best.book, odds: best.price, line, at: isoSeconds(snapshot.takenAt) },
    bookTitle: best.title,
  };
}

function teamOrTotalSide(side: SideCode, event: { home: string; away: string }): string {
  return side === 'h' ? event.home : side === 'a' ? event.away : side === 'o' ? 'over' : 'under';
}

/** Games from the provider's schedule: written, and the starts that moved reported. */
export async function ingestSchedule(db: Executor, provider: string, games: readonly MarketGame[]) {
  const moved = games.length
    ? await upsertGames(db, provider, new TextEncoder().encode(JSON.stringify(games)))
    : [];
  return { games: games.length, moved };
}

/**
 * A league's odds as the provider answered at `takenAt`, prepared (prices.ts prepareOdds): the games written,
 * and the prices of those that have not started (a started game's last prices before its start are its
 * closing prices), a chunk per statement so that other queries get their turn between them.
 */
export async function ingestOdds(
  db: Executor,
  provider: string,
  odds: PreparedOdds,
  takenAt: Date,
): Promise<{ games: number; prices: number; moved: MovedStart[] }> {
  const moved = odds.gameCount ? await upsertGames(db, provider, odds.games) : [];
  let prices = 0;
  for (const chunk of odds.priceChunks) prices += await writePriceChunk(db, provider, chunk, takenAt);
  return { games: odds.gameCount, prices, moved };
}

/** A fetch of a league answered: its time kept for every instance's next decision (the fetch policy's). */
export async function noteFetched(db: Executor, league: string, kind: FetchKind, at: Date): Promise<void> {
  await markFetched(db, league, kind, at);
}

/**
 * Closes the games started by `now`, at most `limit`, inside the caller's transaction. Each game is taken once
 * (locked: another instance takes others). `measure` is handed the games with their last prices, measures
 * what rests on them, and answers the games legs are on: their last prices are kept as closing prices. Every
 * taken game's live prices go (event_prices holds upcoming games only). Returns the games taken.
 */
export async function closeStartedGames(
  tx: Executor,
  now: Date,
  limit: number,
  measure: (games: readonly StartedGame[]) => Promise<ReadonlySet<number>>,
): Promise<StartedGame[]> {
  const taken = await takeStartedGames(tx, now, limit);
  if (!taken.length) return taken;
  await closeGames(tx, taken, await measure(taken), now);
  return taken;
}

/**
 * The event of a game a capper reports himself (not on the market), made if new: one game is one event
 * whoever posts on it.
 */
export async function selfReportedEvent(db: Executor, game: SelfReportedGame): Promise<number> {
  return selfReportedEventId(db, game);
}

/**
 * The pick log's entry holding each game's latest outcome (settled or corrected), kept on the game: a grade
 * names the outcome it rests on, a correction the one it replaces (docs/pick-log.md 'Evidence').
 */
export async function keepOutcomeEntries(
  db: Executor,
  eventIds: readonly number[],
  hashes: readonly Uint8Array[],
): Promise<void> {
  await setOutcomeEntries(db, eventIds, hashes.map(toHex));
}

/** The pick log's entry holding each game's closing prices, kept on the game. */
export async function keepClosedEntries(
  db: Executor,
  eventIds: readonly number[],
  hashes: readonly Uint8Array[],
): Promise<void> {
  await setClosedEntries(db, eventIds, hashes.map(toHex));
}
