import { describe, expect, it } from 'vitest';
import type { SealedLeg } from '#common/pick-seal.js';
import type { LegState } from '#common/schemas/pick-views.js';
import { bookTitle, clvClass, formatAge, legStatus, outcomeText, priceEvidence } from './pick-format';

const leg: SealedLeg = {
  league: 'NBA',
  home: 'Lakers',
  away: 'Celtics',
  startsAt: '2030-06-04T02:30:00Z',
  market: 'spread',
  side: 'Lakers',
  line: -3.5,
  odds: -110,
  units: 1,
};
const market: SealedLeg = {
  ...leg,
  game: 'the-odds-api:abc',
  price: { book: 'betmgm', odds: -110, line: -3.5, at: '2030-06-01T00:00:00Z' },
};
const state: LegState = {
  result: null,
  voidReason: null,
  selfReported: false,
  eventStatus: 'scheduled',
  homeScore: null,
  awayScore: null,
  closingOdds: null,
  clv: null,
};

describe('formatAge', () => {
  const now = new Date('2030-06-01T12:00:00Z');
  it('says how old a snapshot is in words', () => {
    expect(formatAge('2030-06-01T11:59:30Z', now)).toBe('just now');
    expect(formatAge('2030-06-01T11:58:00Z', now)).toBe('2 min ago');
    expect(formatAge('2030-06-01T11:00:00Z', now)).toBe('1 h ago');
    expect(formatAge('2030-05-28T12:00:00Z', now)).toBe('4 days ago');
    // A clock a little ahead of the server's is not "in the future".
    expect(formatAge('2030-06-01T12:00:05Z', now)).toBe('just now');
  });
});

describe('priceEvidence', () => {
  it("names the best price, its book's name and the snapshot for a market leg", () => {
    expect(priceEvidence(market)).toMatch(/^Best price among books: -110 at BetMGM, prices of /);
    expect(priceEvidence({ ...market, odds: -115 })).toMatch(
      /^Taken at -115; the best among books was -110 at BetMGM, prices of /,
    );
  });

  it('has none for a self-reported leg, and shows an unknown book as its key', () => {
    expect(priceEvidence(leg)).toBeNull();
    expect(bookTitle('williamhill_us')).toBe('Caesars');
    expect(bookTitle('somebook')).toBe('somebook');
  });
});

describe('legStatus and outcomeText', () => {
  it('is open before the start, under way after, then its grade', () => {
    expect(legStatus(leg, state, new Date('2030-06-04T02:00:00Z'))).toBe('open');
    expect(legStatus(leg, state, new Date('2030-06-04T03:00:00Z'))).toBe('under way');
    expect(legStatus(leg, { ...state, result: 'void' }, new Date('2030-06-04T03:00:00Z'))).toBe('void');
  });

  it('prints the final score away team first, or why there is none', () => {
    expect(outcomeText(leg, { ...state, eventStatus: 'final', homeScore: 104, awayScore: 99 })).toBe(
      'Final: Celtics 99, Lakers 104',
    );
    expect(outcomeText(leg, { ...state, eventStatus: 'postponed' })).toBe('Postponed');
    expect(outcomeText(leg, state)).toBeNull();
  });
});

describe('clvClass', () => {
  it('is green above zero and red below, as printed to two decimals', () => {
    expect(clvClass(1.85)).toBe('text-emerald-700');
    expect(clvClass(-0.4)).toBe('text-destructive');
    expect(clvClass(0.004)).toBe('text-foreground');
  });
});
