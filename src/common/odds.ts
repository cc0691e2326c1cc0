// American odds, as books print them and PickReel stores them.

/** American odds to decimal odds (the return per unit staked, stake included). */
export function decimalOdds(odds: number): number {
  // Between -100 and +100 American odds mean nothing, and 0 would divide by zero below.
  if (!Number.isFinite(odds) || odds === 0) throw new RangeError(`Not American odds: ${odds}`);
  return odds > 0 ? 1 + odds / 100 : 1 + 100 / Math.abs(odds);
}

/** Which of two American prices pays more for the same stake (the better price for the bettor). */
export function betterPrice(a: number, b: number): number {
  return decimalOdds(a) >= decimalOdds(b) ? a : b;
}
