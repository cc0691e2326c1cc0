// The sports-data market's shared facts: which of our leagues a provider covers (The Odds API's sport keys),
// the markets it prices, and how long a price snapshot may be relied on. Client and server read these.
import type { League } from './leagues.js';

/** The Odds API v4 sport key of each league it prices with home and away teams. */
export const ODDS_API_SPORT_KEYS: Partial<Record<League, string>> = {
  NFL: 'americanfootball_nfl',
  NBA: 'basketball_nba',
  MLB: 'baseball_mlb',
  NHL: 'icehockey_nhl',
  'College Football': 'americanfootball_ncaaf',
  'College Basketball': 'basketball_ncaab',
  Soccer: 'soccer_usa_mls',
};

/** MARKET_LEAGUES' default: the major US leagues. */
export const DEFAULT_MARKET_LEAGUES: readonly League[] = ['NFL', 'NBA', 'MLB', 'NHL'];

/** The markets a feed prices and the scoreboard grades: moneyline, spread, total. */
export const PRICED_MARKETS = ['moneyline', 'spread', 'total'] as const;
export type PricedMarket = (typeof PRICED_MARKETS)[number];

/**
 * A leg takes its price from a snapshot at most this old. Books move within a minute or two of news; a
 * price older than a few minutes may be one no book offers any more, and taking it would be a free bet.
 */
export const MAX_PRICE_AGE_SECONDS = 300;
