import { describe, expect, it } from 'vitest';
import {
  clvAverage,
  clvPercent,
  clvSummary,
  consensusFairProbability,
  fairProbability,
  formatClv,
  impliedProbability,
  pickClv,
} from './clv.js';

describe('fair probabilities', () => {
  it('takes the margin out of a two-sided price, keeping the sides’ ratio', () => {
    // −130 implies 130/230 = 0.565217, +110 implies 100/210 = 0.476190: 4.14 % of margin.
    expect(impliedProbability(-130)).toBeCloseTo(0.565217, 6);
    expect(impliedProbability(110)).toBeCloseTo(0.47619, 6);
    // 0.565217 / (0.565217 + 0.476190) = 0.542744, and the other side 0.457256: they sum to 1.
    expect(fairProbability(-130, 110)).toBeCloseTo(0.542744, 6);
    expect(fairProbability(-130, 110) + fairProbability(110, -130)).toBeCloseTo(1, 12);
    // −110 / −110: no favourite, exactly one half each.
    expect(fairProbability(-110, -110)).toBe(0.5);
  });

  it('takes the median of the books that priced both sides, so one off-market book cannot move it', () => {
    // Fair 0.5 (−110/−110), 0.542744 (−130/+110), 0.6 (−150/+150... 0.6/1.0 = 0.6).
    const three = consensusFairProbability([
      { odds: -110, other: -110 },
      { odds: -130, other: 110 },
      { odds: -150, other: 150 },
    ]);
    expect(three).toBeCloseTo(0.542744, 6);
    // Two books: the mean of the two middle ones, (0.5 + 0.542744) / 2.
    expect(
      consensusFairProbability([
        { odds: -110, other: -110 },
        { odds: -130, other: 110 },
      ]),
    ).toBeCloseTo(0.521372, 6);
    expect(consensusFairProbability([])).toBeNull();
  });
});

describe('clvPercent', () => {
  it('is decimal(price) × closing fair probability − 1, in percent', () => {
    // Took −110 (1.909091); the side closed −130/+110, fair 0.542744: 1.909091 × 0.542744 − 1 = +3.61 %.
    expect(clvPercent([{ odds: -110, closingFair: fairProbability(-130, 110) }])).toBeCloseTo(3.6147, 4);
    // Took +150 (2.5); it closed +130/−150, fair 0.420168: 2.5 × 0.420168 − 1 = +5.04 %.
    expect(clvPercent([{ odds: 150, closingFair: fairProbability(130, -150) }])).toBeCloseTo(5.042, 3);
    // Took −110; the side drifted to +100/−120, fair 0.478261: 1.909091 × 0.478261 − 1 = −8.70 %.
    expect(clvPercent([{ odds: -110, closingFair: fairProbability(100, -120) }])).toBeCloseTo(-8.6957, 4);
    // At the fair price itself: 0.
    expect(clvPercent([{ odds: 100, closingFair: 0.5 }])).toBe(0);
  });

  it('multiplies a parlay’s legs: (1.036147 × 1.050420) − 1 = +8.84 %', () => {
    expect(
      clvPercent([
        { odds: -110, closingFair: fairProbability(-130, 110) },
        { odds: 150, closingFair: fairProbability(130, -150) },
      ]),
    ).toBeCloseTo(8.8389, 4);
  });

  it('refuses what is not a probability', () => {
    expect(() => clvPercent([{ odds: -110, closingFair: 1 }])).toThrow(RangeError);
    expect(() => clvPercent([])).toThrow(RangeError);
  });
});

describe('pickClv', () => {
  const closed = (odds: number, closingFair: number | null, result: string | null = 'win') => ({
    odds,
    closingFair,
    result,
  });

  it('counts each stood leg of a straight pick as a bet; a void leg or one without a close has none', () => {
    const totals = pickClv(
      [
        closed(-110, fairProbability(-130, 110)), // +3.6147
        closed(-110, fairProbability(100, -120), 'loss'), // −8.6957
        closed(150, fairProbability(130, -150), 'void'), // never stood
        closed(120, null), // no book priced its line at the close
      ],
      false,
    );
    expect(totals).toEqual({ bets: 2, sum: -5.081, beat: 1 });
  });

  it('makes a parlay one bet, or none when a leg that stood has no close', () => {
    const a = closed(-110, fairProbability(-130, 110));
    const b = closed(150, fairProbability(130, -150));
    expect(pickClv([a, b], true)).toEqual({ bets: 1, sum: 8.8389, beat: 1 });
    // A void leg drops out, as it does from the payout.
    expect(pickClv([a, { ...b, result: 'void' }], true)).toEqual({ bets: 1, sum: 3.6147, beat: 1 });
    expect(pickClv([a, closed(150, null)], true)).toEqual({ bets: 0, sum: 0, beat: 0 });
  });
});

describe('clvSummary and formatClv', () => {
  it('averages per bet and gives the share that beat the close', () => {
    expect(clvSummary({ bets: 4, sum: 7.4, beat: 3 })).toEqual({ bets: 4, average: 1.85, beatPct: 75 });
    expect(clvSummary({ bets: 3, sum: -1, beat: 1 })).toEqual({ bets: 3, average: -0.33, beatPct: 33.3 });
    expect(clvSummary({ bets: 0, sum: 0, beat: 0 })).toBeNull();
  });

  it("gives one pick's average from its bets and their sum alone, as the summary rounds it", () => {
    expect(clvAverage({ bets: 3, sum: -1 })).toBe(-0.33);
    expect(clvAverage({ bets: 2, sum: 0.005 })).toBe(0);
    expect(clvAverage({ bets: 0, sum: 0 })).toBeNull();
  });

  it('prints a sign and two decimals', () => {
    expect(formatClv(1.846)).toBe('+1.85%');
    expect(formatClv(-0.4)).toBe('−0.40%');
    expect(formatClv(0.001)).toBe('0.00%');
  });
});
