// Categories of verified picks (docs/decisions/028): a pick with legs is filed by its legs, never by what a
// form sent; a video without legs keeps the category it was given (the upload form's default, General).
import type { Category } from './constants.js';
import type { League } from './schemas/picks.js';

/** Where a pick with legs is listed: its league when every leg is in one, else 'Parlays'; null without legs. */
export function legsCategory(legs: readonly { league: string }[]): Category | null {
  if (!legs.length) return null;
  const leagues = new Set(legs.map((leg) => leg.league));
  return leagues.size === 1 ? (legs[0]!.league as League) : 'Parlays';
}
