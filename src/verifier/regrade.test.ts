import { describe, expect, it } from 'vitest';
import { betClv, closingFigures, closingKey, gradeFromLegs, pickClv, resultFromScore } from './regrade.js';

const game = { home: 'Celtics', away: 'Knicks' };

describe('resultFromScore', () => {
  it('grades moneylines, spreads and totals by the published rules, teams in any case', () => {
    const score = { home: 110, away: 104 };
    expect(resultFromScore({ market: 'moneyline', side: 'celtics', line: null }, game, score)).toBe('win');
    expect(resultFromScore({ market: 'moneyline', side: 'Knicks', line: null }, game, score)).toBe('loss');
    expect(resultFromScore({ market: 'spread', side: 'Celtics', line: -6 }, game, score)).toBe('push');
    expect(resultFromScore({ market: 'spread', side: 'Knicks', line: 6.5 }, game, score)).toBe('win');
    expect(resultFromScore({ market: 'total', side: 'Over', line: 214 }, game, score)).toBe('push');
    expect(resultFromScore({ market: 'total', side: 'under', line: 214.5 }, game, score)).toBe('win');
    expect(
      resultFromScore({ market: 'moneyline', side: 'Celtics', line: null }, game, { home: 3, away: 3 }),
    ).toBe('push');
  });

  it('cannot grade a prop, another team, or a line missing', () => {
    const score = { home: 1, away: 0 };
    expect(resultFromScore({ market: 'prop', side: 'Tatum over 30.5', line: null }, game, score)).toBeNull();
    expect(resultFromScore({ market: 'moneyline', side: 'Lakers', line: null }, game, score)).toBeNull();
    expect(resultFromScore({ market: 'spread', side: 'Celtics', line: null }, game, score)).toBeNull();
  });
});

describe('gradeFromLegs', () => {
  it('a straight pick: each leg a bet, units to the cent, decided on the rounded units', () => {
    expect(
      gradeFromLegs(
        [
          { result: 'win', odds: -110, units: 1 },
          { result: 'loss', odds: 150, units: 1 },
          { result: 'void', odds: -110, units: 2 },
        ],
        false,
      ),
    ).toEqual({
      result: 'loss',
      unitsWon: -0.09,
      unitsRisked: 2,
      bets: { win: 1, loss: 1, push: 0, void: 1 },
    });
    expect(gradeFromLegs([{ result: 'push', odds: -110, units: 1 }], false)).toMatchObject({
      result: 'push',
      unitsRisked: 0,
    });
    expect(gradeFromLegs([{ result: 'void', odds: -110, units: 1 }], false).result).toBe('void');
  });

  it('rounds the exact units half away from zero, whatever side of the half-cent the float lands', () => {
    // 0.5 × 1.13 − 0.5 is 0.065 exactly, 0.06499… in floating point.
    expect(
      gradeFromLegs(
        [
          { result: 'win', odds: 113, units: 0.5 },
          { result: 'loss', odds: -110, units: 0.5 },
        ],
        false,
      ),
    ).toMatchObject({ result: 'win', unitsWon: 0.07, unitsRisked: 1 });
    expect(
      gradeFromLegs(
        [
          { result: 'win', odds: 113, units: 0.5 },
          { result: 'push', odds: -110, units: 0.5 },
        ],
        true,
      ),
    ).toMatchObject({ result: 'win', unitsWon: 0.57 });
  });

  it('a parlay: one bet, lost with any leg, paid on the legs that won', () => {
    const won = gradeFromLegs(
      [
        { result: 'win', odds: -110, units: 2 },
        { result: 'push', odds: 200, units: 2 },
        { result: 'win', odds: 150, units: 2 },
      ],
      true,
    );
    // 2 × (1.9090… × 2.5 − 1) = 7.545… → 7.55
    expect(won).toEqual({
      result: 'win',
      unitsWon: 7.55,
      unitsRisked: 2,
      bets: { win: 1, loss: 0, push: 0, void: 0 },
    });
    expect(
      gradeFromLegs(
        [
          { result: 'win', odds: -110, units: 1 },
          { result: 'loss', odds: -110, units: 1 },
        ],
        true,
      ),
    ).toMatchObject({ result: 'loss', unitsWon: -1, unitsRisked: 1 });
    expect(
      gradeFromLegs(
        [
          { result: 'void', odds: -110, units: 1 },
          { result: 'push', odds: -110, units: 1 },
        ],
        true,
      ),
    ).toMatchObject({ result: 'push', unitsWon: 0, unitsRisked: 0 });
  });
});

describe('closing figures and CLV', () => {
  const books = [
    {
      book: 'a',
      prices: [
        ['moneyline', 'home', null, -120],
        ['moneyline', 'away', null, 100],
      ] as [string, string, number | null, number][],
    },
    {
      book: 'b',
      prices: [
        ['moneyline', 'home', null, -115],
        ['moneyline', 'away', null, -105],
        ['spread', 'home', -3.5, -110],
      ] as [string, string, number | null, number][],
    },
  ];

  it('takes the best price among books and the median of their fair probabilities', () => {
    const figures = closingFigures(books);
    const fairA = 120 / 220 / (120 / 220 + 0.5);
    const fairB = 115 / 215 / (115 / 215 + 105 / 205);
    expect(figures.get('moneyline|home|null')).toEqual({ best: -115, fair: (fairA + fairB) / 2 });
    // Only one side of the spread priced: no fair probability.
    expect(figures.get('spread|home|-3.5')).toEqual({ best: -110, fair: null });
  });

  it('measures a bet against the close, and a pick from its bets', () => {
    expect(betClv([{ odds: 110, fair: 0.5 }])).toBe(5);
    expect(betClv([{ odds: -110, fair: 0.5 }])).toBe(-4.5455);
    expect(closingKey({ market: 'spread', side: 'KNICKS', line: 3.5 }, game)).toEqual({
      market: 'spread',
      side: 'away',
      line: 3.5,
    });
    const legs = [
      { result: 'win' as const, odds: 110, fair: 0.5 },
      { result: 'void' as const, odds: 110, fair: 0.5 },
      { result: 'loss' as const, odds: -110, fair: null },
    ];
    expect(pickClv(legs, false)).toEqual({ bets: 1, sum: 50_000, beat: 1 });
    expect(pickClv(legs, true)).toEqual({ bets: 0, sum: 0, beat: 0 });
  });
});
