// The record's limits, without zod: the record badge on the home page's cards reads them, and the entry
// chunk must not carry the schema library.

/**
 * A capper is ranked only with at least this many decided bets (wins and losses) in the period (and
 * league): pushes and voids risk nothing, so twenty of them prove nothing.
 */
export const LEADERBOARD_MIN_PICKS = 20;
export const LEADERBOARD_PERIODS = ['30', '90', 'all'] as const;
export type LeaderboardPeriod = (typeof LEADERBOARD_PERIODS)[number];
export const LEADERBOARD_SORTS = ['units', 'roi', 'clv'] as const;
export type LeaderboardSort = (typeof LEADERBOARD_SORTS)[number];
/** GET /api/records: the most usernames one request may ask for (a page of cards). */
export const MAX_RECORD_USERNAMES = 60;
