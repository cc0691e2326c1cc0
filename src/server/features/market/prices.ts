// A game's prices as PickReel keeps them (event_prices.prices): each book's moneyline, spread and total in a
// compact json value, and what posting and the closing line read from it. Pure: no I/O, no clock.
import { createHash } from 'node:crypto';
import { consensusFairProbability } from '#common/clv.js';
import type { PricedMarket } from '#common/market.js';
import { decimalOdds } from '#common/odds.js';
import type { BookPrices, GameOdds, MarketGame, PreparedOdds, ProviderAnswer } from './provider.js';

/** Home, away (moneyline and spread), over, under (total). */
export type SideCode = 'h' | 'a' | 'o' | 'u';
const MARKET_CODES = { moneyline: 'm', spread: 's', total: 't' } as const;
type MarketCode = (typeof MARKET_CODES)[PricedMarket];

/** [market, side, point (null for a moneyline), American price]. */
type PriceTuple = [MarketCode, SideCode, number | null, number];

export interface SnapshotBook {
  key: string;
  title: string;
  updatedAt: string;
  prices: PriceTuple[];
}

export interface PriceSnapshot {
  books: SnapshotBook[];
}

/** One side at one line, as a book offers it. */
export interface OfferedPrice {
  book: string;
  title: string;
  price: number;
  point: number | null;
  updatedAt: string;
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** A side as the snapshot writes it: the team's place in the game, or over/under. */
export function sideCode(
  market: PricedMarket,
  side: string,
  game: Pick<MarketGame, 'home' | 'away'>,
): SideCode | null {
  if (market === 'total') {
    const lower = side.toLowerCase();
    return lower === 'over' ? 'o' : lower === 'under' ? 'u' : null;
  }
  if (sameName(side, game.home)) return 'h';
  if (sameName(side, game.away)) return 'a';
  return null;
}

/** The provider's books as a snapshot: team sides by their place in the game, books in key order. */
export function snapshotOf(
  game: Pick<MarketGame, 'home' | 'away'>,
  books: readonly BookPrices[],
): PriceSnapshot {
  const out: SnapshotBook[] = [];
  for (const book of [...books].sort((a, b) => (a.book < b.book ? -1 : a.book > b.book ? 1 : 0))) {
    const prices: PriceTuple[] = [];
    for (const price of book.prices) {
      const side = sideCode(price.market, price.side, game);
      if (side) prices.push([MARKET_CODES[price.market], side, price.point, price.price]);
    }
    if (prices.length) out.push({ key: book.book, title: book.title, updatedAt: book.updatedAt, prices });
  }
  return { books: out };
}

/** A hash of the snapshot: an unchanged game's prices are not written again. */
export function snapshotDigest(snapshot: PriceSnapshot): string {
  return createHash('sha1').update(JSON.stringify(snapshot)).digest('base64url');
}

const samePoint = (a: number | null, b: number | null) => (a === null ? b === null : b !== null && a === b);

/** Every book's price for this side at this line. */
export function offersOf(
  snapshot: PriceSnapshot,
  market: PricedMarket,
  side: SideCode,
  point: number | null,
): OfferedPrice[] {
  const code = MARKET_CODES[market];
  const offers: OfferedPrice[] = [];
  for (const book of snapshot.books)
    for (const [m, s, p, price] of book.prices)
      if (m === code && s === side && samePoint(p, point))
        offers.push({ book: book.key, title: book.title, price, point: p, updatedAt: book.updatedAt });
  return offers;
}

/** The best price among books for this side and line (the most a bettor could get); null if none offers it. */
export function bestPrice(
  snapshot: PriceSnapshot,
  market: PricedMarket,
  side: SideCode,
  point: number | null,
): OfferedPrice | null {
  let best: OfferedPrice | null = null;
  for (const offer of offersOf(snapshot, market, side, point))
    if (!best || decimalOdds(offer.price) > decimalOdds(best.price)) best = offer;
  return best;
}

/** The lines the books offer for this side, each with its best price, in order of the line. */
export function offeredLines(snapshot: PriceSnapshot, market: PricedMarket, side: SideCode): OfferedPrice[] {
  const code = MARKET_CODES[market];
  const byPoint = new Map<number | null, OfferedPrice>();
  for (const book of snapshot.books)
    for (const [m, s, point, price] of book.prices) {
      if (m !== code || s !== side) continue;
      const known = byPoint.get(point);
      if (!known || decimalOdds(price) > decimalOdds(known.price))
        byPoint.set(point, { book: book.key, title: book.title, price, point, updatedAt: book.updatedAt });
    }
  return [...byPoint.values()].sort((a, b) => (a.point ?? 0) - (b.point ?? 0));
}

const OTHER_SIDE: Record<SideCode, SideCode> = { h: 'a', a: 'h', o: 'u', u: 'o' };

/**
 * The closing figures of a side at a line: the best closing price among books, and the consensus fair
 * probability (common/clv.ts) from every book that priced both sides of that line (a spread's other side
 * at the opposite point). null when no book offered the side at that line at the close.
 */
export function closingOf(
  snapshot: PriceSnapshot,
  market: PricedMarket,
  side: SideCode,
  point: number | null,
): { odds: number; fair: number | null } | null {
  const best = bestPrice(snapshot, market, side, point);
  if (!best) return null;
  const code = MARKET_CODES[market];
  const otherPoint = market === 'spread' && point !== null ? -point : point;
  const pairs: { odds: number; other: number }[] = [];
  for (const book of snapshot.books) {
    let own: number | undefined;
    let other: number | undefined;
    for (const [m, s, p, price] of book.prices) {
      if (m !== code) continue;
      if (s === side && samePoint(p, point)) own = price;
      else if (s === OTHER_SIDE[side] && samePoint(p, otherPoint)) other = price;
    }
    if (own !== undefined && other !== undefined) pairs.push({ odds: own, other });
  }
  return { odds: best.price, fair: consensusFairProbability(pairs) };
}

const MARKET_NAMES = { m: 'moneyline', s: 'spread', t: 'total' } as const;
const SIDE_NAMES = { h: 'home', a: 'away', o: 'over', u: 'under' } as const;

/** A snapshot's prices as the log writes them: [market, side, line, price] by name, per book. */
export function namedPrices(
  snapshot: PriceSnapshot,
): { book: string; prices: [string, string, number | null, number][] }[] {
  return snapshot.books.map((book) => ({
    book: book.key,
    prices: book.prices.map(([m, s, point, price]) => [MARKET_NAMES[m], SIDE_NAMES[s], point, price]),
  }));
}

/**
 * Every side and line some book offered in the snapshot, with its closing figures (closingOf) and the book
 * of the best price: what a game's `closed` log entry lists, in market, side and line order.
 */
export function closingLines(snapshot: PriceSnapshot): {
  market: PricedMarket;
  side: string;
  line: number | null;
  best: number;
  book: string;
  fair: number | null;
}[] {
  const seen = new Map<string, [MarketCode, SideCode, number | null]>();
  for (const book of snapshot.books)
    for (const [m, s, point] of book.prices) seen.set(`${m}|${s}|${point}`, [m, s, point]);
  const order = (code: string) => 'msthaou'.indexOf(code);
  const lines = [...seen.values()].sort(
    (a, b) => order(a[0]) - order(b[0]) || order(a[1]) - order(b[1]) || (a[2] ?? 0) - (b[2] ?? 0),
  );
  const out = [];
  for (const [m, s, point] of lines) {
    const market = MARKET_NAMES[m];
    const best = bestPrice(snapshot, market, s, point)!;
    const closing = closingOf(snapshot, market, s, point)!;
    out.push({ market, side: SIDE_NAMES[s], line: point, best: best.price, book: best.book, fair: closing.fair });
  }
  return out;
}

/** Games per chunk of prepared prices: a few hundred KB of JSON, a short statement each. */
export const PRICE_CHUNK_GAMES = 100;

/** A provider's odds as the database writes them: JSON text of the games and of each game's snapshot. */
export function prepareOdds(answer: ProviderAnswer<GameOdds[]>): PreparedOdds {
  const chunks: string[] = [];
  let chunk: string[] = [];
  for (const { game, books } of answer.data) {
    const prices = snapshotOf(game, books);
    if (!prices.books.length) continue;
    const text = JSON.stringify(prices);
    const digest = createHash('sha1').update(text).digest('base64url');
    chunk.push(`{"g":${JSON.stringify(game.id)},"d":"${digest}","p":${text}}`);
    if (chunk.length === PRICE_CHUNK_GAMES) {
      chunks.push(`[${chunk.join(',')}]`);
      chunk = [];
    }
  }
  if (chunk.length) chunks.push(`[${chunk.join(',')}]`);
  const utf8 = new TextEncoder();
  return {
    games: utf8.encode(JSON.stringify(answer.data.map(({ game }) => game))),
    gameCount: answer.data.length,
    priceChunks: chunks.map((text) => utf8.encode(text)),
    quota: answer.quota,
  };
}
