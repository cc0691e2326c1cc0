// The leagues a leg can be on and the markets it can bet, without the schemas that check a leg: pages that
// only show picks (the video page, the leaderboard) read these and load no validation library.
import { CATEGORIES, type Category } from './constants.js';

/** The categories that are not a league (spec 5): a leg is on a game of one of the others. */
const NOT_LEAGUES = ['General', 'Fantasy Sports', 'Player Props', 'Parlays', 'Daily Picks'] as const;
export type League = Exclude<Category, (typeof NOT_LEAGUES)[number]>;
/** The leagues a leg can be on: the sports among the categories, in the categories' order. */
export const LEAGUES = CATEGORIES.filter(
  (category): category is League => !(NOT_LEAGUES as readonly string[]).includes(category),
) as [League, ...League[]];

export const MARKETS = ['moneyline', 'spread', 'total', 'prop', 'other'] as const;
export type Market = (typeof MARKETS)[number];
/** Markets graded from the final score by rule; the others are graded by an admin, with a reason. */
export const SCORED_MARKETS: readonly Market[] = ['moneyline', 'spread', 'total'];
export const TOTAL_SIDES = ['over', 'under'] as const;
