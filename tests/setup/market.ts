// Market games for the API tests (docs/decisions/025): a game on the test app's stand-in, fetched into the
// app as its market would, and its final score settled by the app from the stand-in's scores.
import { expect } from 'vitest';
import type { League } from '#common/schemas/picks.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import type { MarketGame } from '#server/features/market/provider.js';
import type { StandInBook } from '#server/features/market/stand-in.js';
import type { TestApp } from './test-app.js';

const HOUR = 3600_000;

/** ISO-8601 UTC to the second, `hours` from now. */
export const inHours = (hours: number) =>
  new Date(Math.round((Date.now() + hours * HOUR) / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** A league's usual main lines: the home spread and the total the default books price. */
export function mainLines(league: League): { spread: number; total: number } {
  switch (league) {
    case 'NFL':
      return { spread: -3.5, total: 44.5 };
    case 'MLB':
      return { spread: -1.5, total: 8.5 };
    case 'NHL':
      return { spread: -1.5, total: 5.5 };
    default:
      return { spread: -3.5, total: 220.5 };
  }
}

/** Two books pricing every market: DraftKings and FanDuel, the best prices split between them. */
export function defaultBooks(league: League = 'NBA'): StandInBook[] {
  const { spread, total } = mainLines(league);
  return [
    {
      book: 'draftkings',
      title: 'DraftKings',
      moneyline: { home: -150, away: 130 },
      spread: [{ home: spread, homePrice: -110, awayPrice: -110 }],
      total: [{ point: total, over: -110, under: -110 }],
    },
    {
      book: 'fanduel',
      title: 'FanDuel',
      moneyline: { home: -145, away: 125 },
      spread: [{ home: spread, homePrice: -108, awayPrice: -112 }],
      total: [{ point: total, over: -112, under: -108 }],
    },
  ];
}

let games = 0;

export interface TestGame {
  game: MarketGame;
  /** The app's event for it. */
  eventId: number;
}

/** A game on the stand-in with its books' prices, fetched into the app (schedule and odds). */
export async function marketGame(
  t: TestApp,
  options: { league?: League; home?: string; away?: string; startsAt?: string; books?: StandInBook[] } = {},
): Promise<TestGame> {
  const standIn = t.standIn!;
  games += 1;
  const league = options.league ?? 'NBA';
  const game = standIn.addGame({
    league,
    home: options.home ?? `Home Team ${process.pid}-${games}`,
    away: options.away ?? `Away Team ${process.pid}-${games}`,
    startsAt: options.startsAt ?? inHours(24),
  });
  standIn.setOdds(game.id, options.books ?? defaultBooks(league));
  await t.app.market!.refreshNow(league, { odds: true });
  const eventId = await eventIdOfGame(t, game.id);
  return { game, eventId };
}

export async function eventIdOfGame(t: TestApp, gameId: string): Promise<number> {
  const rows = rowsOf<{ id: number }>(
    await t.database.db.execute(sql`select id from events where game_id = ${gameId}`),
  );
  expect(rows, `no event for game ${gameId}`).toHaveLength(1);
  return rows[0]!.id;
}

/** A leg on a market game, as the form sends it: the game by id, the side by name, no odds (the market's). */
export function marketLeg(
  { game, eventId }: TestGame,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    league: game.league,
    home: game.home,
    away: game.away,
    startsAt: game.startsAt,
    eventId,
    market: 'spread',
    side: game.home,
    line: mainLines(game.league).spread,
    units: 1,
    ...overrides,
  };
}

/**
 * The game is over: the stand-in has its final score, and the app reads it at `now` (after the start, so
 * the game has started by the app's clock too), keeping the closing prices first, then grading.
 */
export async function finishGame(
  t: TestApp,
  { game }: TestGame,
  score: { home: number; away: number },
  now: Date,
): Promise<{ settled: number }> {
  t.standIn!.setScore(game.id, { ...score, completed: true });
  return t.app.market!.refreshNow(game.league, { scoresDays: 3 }, now);
}

/** A price for the other side of a two-way market, so both sides are priced (and a close measurable). */
const otherSide = (odds: number) => (odds >= 100 ? -(odds + 20) : odds <= -120 ? -odds - 20 : -110);

/**
 * A leg as earlier tests wrote it (league, teams, start, market, side, line, odds, units), bound to a market
 * game made for it: the stand-in lists the game with one book pricing exactly that side and line at those
 * odds, so the leg posts at its own price. Returns the leg with the game's id.
 */
export async function marketLegFor(
  t: TestApp,
  leg: {
    league: League;
    home: string;
    away: string;
    startsAt: string;
    market: 'moneyline' | 'spread' | 'total';
    side: string;
    line: number | null;
    odds: number;
    units: number;
  },
): Promise<Record<string, unknown> & { eventId: number }> {
  const existing = t.standIn!.games(leg.league).find((g) => g.home === leg.home && g.away === leg.away);
  const game =
    existing ??
    t.standIn!.addGame({ league: leg.league, home: leg.home, away: leg.away, startsAt: leg.startsAt });
  const home = leg.side.toLowerCase() === leg.home.toLowerCase();
  const book: StandInBook = { book: 'testbook', title: 'Test Book' };
  if (leg.market === 'moneyline')
    book.moneyline = home
      ? { home: leg.odds, away: otherSide(leg.odds) }
      : { home: otherSide(leg.odds), away: leg.odds };
  else if (leg.market === 'spread')
    book.spread = home
      ? { home: leg.line!, homePrice: leg.odds, awayPrice: otherSide(leg.odds) }
      : { home: -leg.line!, homePrice: otherSide(leg.odds), awayPrice: leg.odds };
  else
    book.total =
      leg.side.toLowerCase() === 'over'
        ? { point: leg.line!, over: leg.odds, under: otherSide(leg.odds) }
        : { point: leg.line!, over: otherSide(leg.odds), under: leg.odds };
  // Other legs already on this game keep their prices: the books are merged by market.
  const books = (existing && priced.get(game.id)) ?? { book: 'testbook', title: 'Test Book' };
  const merged: StandInBook = {
    ...books,
    ...Object.fromEntries(Object.entries(book).filter(([k]) => k !== 'book' && k !== 'title')),
  };
  priced.set(game.id, merged);
  t.standIn!.setOdds(game.id, [merged]);
  await t.app.market!.refreshNow(leg.league, { odds: true });
  return { ...leg, eventId: await eventIdOfGame(t, game.id) };
}

const priced = new Map<string, StandInBook>();
