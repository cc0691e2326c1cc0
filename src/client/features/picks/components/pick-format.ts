// How a pick's times, odds, lines and legs read on the page (issue 14).
import type { SealedLeg } from '#common/pick-seal.js';

const PICK_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** 'Nov 25, 2026, 6:30 PM' in the viewer's time zone. */
export function formatPickTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : PICK_TIME.format(date);
}

/** American odds with their sign: '+150', '-110'. */
export function formatOdds(odds: number): string {
  return odds > 0 ? `+${odds}` : String(odds);
}

const signed = (line: number) => (line > 0 ? `+${line}` : String(line));

/** The bet of one leg as a bettor writes it: 'Lakers -3.5', 'Lakers moneyline', 'Over 220.5', a prop's text. */
export function describeBet(leg: SealedLeg): string {
  switch (leg.market) {
    case 'moneyline':
      return `${leg.side} moneyline`;
    case 'spread':
      return leg.line === null ? leg.side : `${leg.side} ${signed(leg.line)}`;
    case 'total': {
      const side = leg.side.charAt(0).toUpperCase() + leg.side.slice(1);
      return leg.line === null ? side : `${side} ${leg.line}`;
    }
    default:
      return leg.side;
  }
}

export function formatStake(units: number): string {
  return `${units} ${units === 1 ? 'unit' : 'units'}`;
}
