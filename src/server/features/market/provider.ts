// What PickReel needs of a sports-data provider (docs/decisions/025): the schedule, prices per book and
// scores, in one normalised shape whatever the provider's own format. The Odds API v4 is the built-in
// adapter (odds-api-provider.ts); tests and the demo point it at the local stand-in (stand-in.ts).
import type { PricedMarket } from '#common/market.js';
import type { League } from '#common/schemas/picks.js';

/** One game as the provider lists it. */
export interface MarketGame {
  /** The provider's stable id of the game. */
  id: string;
  league: League;
  /** Team names as the provider writes them. */
  home: string;
  away: string;
  /** The official start, ISO-8601 UTC to the second ('2026-11-28T19:30:00Z'). */
  startsAt: string;
}

/**
 * One price of one book: `side` is the team's name as the game writes it (moneyline, spread) or 'over' /
 * 'under' (total); `point` is the spread or total line (null for a moneyline); `price` is American odds.
 */
export interface MarketPrice {
  market: PricedMarket;
  side: string;
  point: number | null;
  price: number;
}

export interface BookPrices {
  /** The provider's key of the book ('draftkings'). */
  book: string;
  /** Its display name ('DraftKings'). */
  title: string;
  /** When the book last changed a price, ISO-8601 UTC. */
  updatedAt: string;
  prices: MarketPrice[];
}

export interface GameOdds {
  game: MarketGame;
  books: BookPrices[];
}

export interface GameScore {
  game: MarketGame;
  /** true once the game is over and the score final. */
  completed: boolean;
  /** null before the game has a score. */
  homeScore: number | null;
  awayScore: number | null;
  /** When the provider last changed the score, ISO-8601 UTC; null if never. */
  updatedAt: string | null;
}

/** The provider's usage quota as its last answer stated it (The Odds API's x-requests-* headers). */
export interface Quota {
  /** Credits left until the quota resets; null when the provider did not say. */
  remaining: number | null;
  /** Credits used since the last reset. */
  used: number | null;
  /** What the last call cost. */
  last: number | null;
}

export interface ProviderAnswer<T> {
  data: T;
  quota: Quota;
}

/** Thrown for an answer that cannot be used: a network failure, a non-2xx status, a malformed body. */
export class MarketProviderError extends Error {
  constructor(
    message: string,
    /** The HTTP status when there was one. */
    readonly status: number | null = null,
    /** True when the provider refused for want of credits (retrying before the reset is pointless). */
    readonly quotaExhausted = false,
  ) {
    super(message);
    this.name = 'MarketProviderError';
  }
}

/**
 * A league's odds made ready to write (prices.ts prepareOdds): the games, and each game's price snapshot
 * with its digest, as JSON text in chunks that the database unpacks. A provider may make them on a thread of
 * its own: a full slate is megabytes of JSON that would otherwise hold the server's one event loop.
 */
export interface PreparedOdds {
  /** UTF-8 JSON array of MarketGame. */
  games: Uint8Array;
  gameCount: number;
  /**
   * UTF-8 JSON arrays of {"g": game id, "d": digest, "p": snapshot}, a hundred games each. Bytes, not
   * strings: moved from the worker's thread without a copy, and sent to the database as they are.
   */
  priceChunks: Uint8Array[];
  quota: Quota;
}

export interface MarketProvider {
  /** Recorded as the source of what it settles and prices ('the-odds-api'). */
  readonly name: string;
  /** The leagues it follows (MARKET_LEAGUES). */
  readonly leagues: readonly League[];
  /** Upcoming and live games of a league. Free at The Odds API. */
  schedule(league: League): Promise<ProviderAnswer<MarketGame[]>>;
  /** Upcoming (and live) games with each book's moneyline, spread and total. */
  odds(league: League): Promise<ProviderAnswer<GameOdds[]>>;
  /** The same, made ready to write; without it, odds() is read and prepared on the calling thread. */
  prepareOdds?(league: League): Promise<PreparedOdds>;
  /** Live and upcoming games' scores, and completed ones of the last `daysFrom` days (1 to 3). */
  scores(league: League, daysFrom: number): Promise<ProviderAnswer<GameScore[]>>;
}
