import { describe, expect, it } from 'vitest';
import {
  decimalOdds,
  formatUnits,
  gradePick,
  gradeScoredLeg,
  legUnitsWon,
  recordBadge,
  summariseRecord,
  type PickGrade,
  type RecordSummary,
  type ScoredLeg,
} from './pick-grading.js';

const game = { home: 'Lakers', away: 'Celtics' };
const leg = (market: ScoredLeg['market'], side: string, line: number | null): ScoredLeg => ({
  ...game,
  market,
  side,
  line,
});

describe('gradeScoredLeg', () => {
  it('grades a moneyline by who scored more, either side, whatever the case of the side', () => {
    expect(gradeScoredLeg(leg('moneyline', 'Lakers', null), { home: 110, away: 106 })).toBe('win');
    expect(gradeScoredLeg(leg('moneyline', 'Celtics', null), { home: 110, away: 106 })).toBe('loss');
    expect(gradeScoredLeg(leg('moneyline', 'celtics', null), { home: 98, away: 106 })).toBe('win');
    expect(gradeScoredLeg(leg('moneyline', 'LAKERS', null), { home: 98, away: 106 })).toBe('loss');
  });

  it('grades a moneyline tie as a push (two-way moneyline)', () => {
    expect(gradeScoredLeg(leg('moneyline', 'Lakers', null), { home: 2, away: 2 })).toBe('push');
    expect(gradeScoredLeg(leg('moneyline', 'Celtics', null), { home: 2, away: 2 })).toBe('push');
  });

  it('grades a spread by the side score plus the line against the other score', () => {
    const score = { home: 110, away: 106 };
    // Lakers -3.5: 106.5 > 106; -4: 106 = 106; -4.5: 105.5 < 106.
    expect(gradeScoredLeg(leg('spread', 'Lakers', -3.5), score)).toBe('win');
    expect(gradeScoredLeg(leg('spread', 'Lakers', -4), score)).toBe('push');
    expect(gradeScoredLeg(leg('spread', 'Lakers', -4.5), score)).toBe('loss');
    // Celtics +3.5: 109.5 < 110; +4: 110 = 110; +4.5: 110.5 > 110.
    expect(gradeScoredLeg(leg('spread', 'Celtics', 3.5), score)).toBe('loss');
    expect(gradeScoredLeg(leg('spread', 'celtics', 4), score)).toBe('push');
    expect(gradeScoredLeg(leg('spread', 'Celtics', 4.5), score)).toBe('win');
  });

  it('grades a total by the combined score against the line, under the reverse of over', () => {
    // 111 + 110 = 221.
    const score = { home: 111, away: 110 };
    expect(gradeScoredLeg(leg('total', 'over', 220.5), score)).toBe('win');
    expect(gradeScoredLeg(leg('total', 'under', 220.5), score)).toBe('loss');
    expect(gradeScoredLeg(leg('total', 'Over', 221), score)).toBe('push');
    expect(gradeScoredLeg(leg('total', 'under', 221), score)).toBe('push');
    expect(gradeScoredLeg(leg('total', 'over', 221.5), score)).toBe('loss');
    expect(gradeScoredLeg(leg('total', 'under', 221.5), score)).toBe('win');
  });

  it('throws for a market not graded from the score, or a side that is neither team nor over/under', () => {
    const score = { home: 1, away: 0 };
    const prop = { ...leg('moneyline', 'Lakers', null), market: 'prop' } as unknown as ScoredLeg;
    expect(() => gradeScoredLeg(prop, score)).toThrow(/prop/);
    expect(() => gradeScoredLeg(leg('moneyline', 'Knicks', null), score)).toThrow(/Knicks/);
    expect(() => gradeScoredLeg(leg('spread', 'Knicks', -3.5), score)).toThrow(/Knicks/);
    expect(() => gradeScoredLeg(leg('total', 'Lakers', 220.5), score)).toThrow(/over or under/);
  });
});

describe('decimalOdds and legUnitsWon', () => {
  it('converts American odds to decimal odds', () => {
    expect(decimalOdds(150)).toBe(2.5);
    expect(decimalOdds(100)).toBe(2);
    expect(decimalOdds(-100)).toBe(2);
    expect(decimalOdds(-200)).toBe(1.5);
    // 1 + 100/110 = 1.90909...
    expect(decimalOdds(-110)).toBeCloseTo(1.909091, 6);
    expect(() => decimalOdds(0)).toThrow(RangeError);
  });

  it('pays a win at the odds, takes the stake on a loss, and nothing on a push or void', () => {
    // 1 × 100/110 = 0.90909...; 2 × 150/100 = 3.
    expect(legUnitsWon('win', -110, 1)).toBeCloseTo(0.909091, 6);
    expect(legUnitsWon('win', 150, 2)).toBe(3);
    expect(legUnitsWon('win', -200, 3)).toBe(1.5);
    expect(legUnitsWon('loss', -110, 2)).toBe(-2);
    expect(legUnitsWon('loss', 150, 2)).toBe(-2);
    expect(legUnitsWon('push', 150, 2)).toBe(0);
    expect(legUnitsWon('void', -110, 2)).toBe(0);
  });
});

describe('gradePick', () => {
  it('is null while a leg is ungraded, and for no legs', () => {
    expect(gradePick([], false)).toBeNull();
    expect(gradePick([], true)).toBeNull();
    const legs = [
      { result: 'loss' as const, odds: -110, units: 1 },
      { result: null, odds: -110, units: 1 },
    ];
    expect(gradePick(legs, true)).toBeNull();
    expect(gradePick(legs, false)).toBeNull();
  });

  it('grades a single straight bet at the odds, rounded to cents of a unit', () => {
    expect(gradePick([{ result: 'win', odds: -110, units: 1 }], false)).toEqual({
      result: 'win',
      unitsWon: 0.91,
      unitsRisked: 1,
      bets: { win: 1, loss: 0, push: 0, void: 0 },
    });
    expect(gradePick([{ result: 'win', odds: 150, units: 2 }], false)).toEqual({
      result: 'win',
      unitsWon: 3,
      unitsRisked: 2,
      bets: { win: 1, loss: 0, push: 0, void: 0 },
    });
    expect(gradePick([{ result: 'loss', odds: 150, units: 2 }], false)).toEqual({
      result: 'loss',
      unitsWon: -2,
      unitsRisked: 2,
      bets: { win: 0, loss: 1, push: 0, void: 0 },
    });
  });

  it('pays a two-leg parlay at the product of the decimal odds', () => {
    // 1.909091² − 1 = 2.6446...
    const legs = [
      { result: 'win' as const, odds: -110, units: 1 },
      { result: 'win' as const, odds: -110, units: 1 },
    ];
    expect(gradePick(legs, true)).toEqual({
      result: 'win',
      unitsWon: 2.64,
      unitsRisked: 1,
      bets: { win: 1, loss: 0, push: 0, void: 0 },
    });
    // +150 and -200 at 2 units: 2 × (2.5 × 1.5 − 1) = 5.5.
    const mixed = [
      { result: 'win' as const, odds: 150, units: 2 },
      { result: 'win' as const, odds: -200, units: 2 },
    ];
    expect(gradePick(mixed, true)).toEqual({
      result: 'win',
      unitsWon: 5.5,
      unitsRisked: 2,
      bets: { win: 1, loss: 0, push: 0, void: 0 },
    });
  });

  it('drops a pushed or void parlay leg and pays the legs that remain', () => {
    // Only the +150 leg remains: 1 × (2.5 − 1) = 1.5, not 1 × (2.5 × 1.909 − 1) = 3.77.
    const pushed = [
      { result: 'push' as const, odds: -110, units: 1 },
      { result: 'win' as const, odds: 150, units: 1 },
    ];
    expect(gradePick(pushed, true)).toEqual({
      result: 'win',
      unitsWon: 1.5,
      unitsRisked: 1,
      bets: { win: 1, loss: 0, push: 0, void: 0 },
    });
    const voided = [
      { result: 'win' as const, odds: 150, units: 1 },
      { result: 'void' as const, odds: -110, units: 1 },
    ];
    expect(gradePick(voided, true)).toEqual({
      result: 'win',
      unitsWon: 1.5,
      unitsRisked: 1,
      bets: { win: 1, loss: 0, push: 0, void: 0 },
    });
  });

  it('loses the stake on a parlay with any lost leg, whatever the other legs did', () => {
    const legs = [
      { result: 'win' as const, odds: 150, units: 2 },
      { result: 'loss' as const, odds: -110, units: 2 },
      { result: 'push' as const, odds: -110, units: 2 },
    ];
    expect(gradePick(legs, true)).toEqual({
      result: 'loss',
      unitsWon: -2,
      unitsRisked: 2,
      bets: { win: 0, loss: 1, push: 0, void: 0 },
    });
  });

  it('voids a parlay whose legs are all void, and pushes one with no leg left otherwise', () => {
    const allVoid = [
      { result: 'void' as const, odds: -110, units: 1 },
      { result: 'void' as const, odds: 150, units: 1 },
    ];
    expect(gradePick(allVoid, true)).toEqual({
      result: 'void',
      unitsWon: 0,
      unitsRisked: 0,
      bets: { win: 0, loss: 0, push: 0, void: 1 },
    });
    const pushAndVoid = [
      { result: 'push' as const, odds: -110, units: 1 },
      { result: 'void' as const, odds: 150, units: 1 },
    ];
    expect(gradePick(pushAndVoid, true)).toEqual({
      result: 'push',
      unitsWon: 0,
      unitsRisked: 0,
      bets: { win: 0, loss: 0, push: 1, void: 0 },
    });
  });

  it('adds up straight legs on their own: one win and one loss', () => {
    // 0.909 − 1 = −0.0909; risked 1 + 1.
    const close = [
      { result: 'win' as const, odds: -110, units: 1 },
      { result: 'loss' as const, odds: -110, units: 1 },
    ];
    // Two bets, one won and one lost: a record counts 1-1, not one loss.
    expect(gradePick(close, false)).toEqual({
      result: 'loss',
      unitsWon: -0.09,
      unitsRisked: 2,
      bets: { win: 1, loss: 1, push: 0, void: 0 },
    });
    // 1.5 − 1 = 0.5 (a parlay of these would be −1).
    const ahead = [
      { result: 'win' as const, odds: 150, units: 1 },
      { result: 'loss' as const, odds: -110, units: 1 },
    ];
    expect(gradePick(ahead, false)).toEqual({
      result: 'win',
      unitsWon: 0.5,
      unitsRisked: 2,
      bets: { win: 1, loss: 1, push: 0, void: 0 },
    });
  });

  it('counts only won and lost straight legs as risked; void only when every leg is void', () => {
    const legs = [
      { result: 'win' as const, odds: 150, units: 2 },
      { result: 'push' as const, odds: -110, units: 3 },
      { result: 'void' as const, odds: -110, units: 4 },
    ];
    expect(gradePick(legs, false)).toEqual({
      result: 'win',
      unitsWon: 3,
      unitsRisked: 2,
      bets: { win: 1, loss: 0, push: 1, void: 1 },
    });
    const allVoid = [
      { result: 'void' as const, odds: -110, units: 1 },
      { result: 'void' as const, odds: 150, units: 2 },
    ];
    expect(gradePick(allVoid, false)).toEqual({
      result: 'void',
      unitsWon: 0,
      unitsRisked: 0,
      bets: { win: 0, loss: 0, push: 0, void: 2 },
    });
    const pushAndVoid = [
      { result: 'push' as const, odds: -110, units: 1 },
      { result: 'void' as const, odds: 150, units: 2 },
    ];
    expect(gradePick(pushAndVoid, false)).toEqual({
      result: 'push',
      unitsWon: 0,
      unitsRisked: 0,
      bets: { win: 0, loss: 0, push: 1, void: 1 },
    });
  });

  it('pushes straight legs that break exactly even', () => {
    // +100 win pays 1, the loss takes 1.
    const legs = [
      { result: 'win' as const, odds: 100, units: 1 },
      { result: 'loss' as const, odds: -110, units: 1 },
    ];
    expect(gradePick(legs, false)).toEqual({
      result: 'push',
      unitsWon: 0,
      unitsRisked: 2,
      bets: { win: 1, loss: 1, push: 0, void: 0 },
    });
  });

  it('rounds half away from zero despite float error, and never returns -0', () => {
    // 0.1 × 105/100 = 0.105 (stored just under): 0.105 − 0.3 = −0.195 → −0.20, not −0.19.
    const down = gradePick(
      [
        { result: 'win', odds: 105, units: 0.1 },
        { result: 'loss', odds: -110, units: 0.3 },
      ],
      false,
    );
    expect(down).toEqual({
      result: 'loss',
      unitsWon: -0.2,
      unitsRisked: 0.4,
      bets: { win: 1, loss: 1, push: 0, void: 0 },
    });
    // 0.105 − 0.1 = 0.005 (stored as 0.00499999...) → +0.01.
    const up = gradePick(
      [
        { result: 'win', odds: 105, units: 0.1 },
        { result: 'loss', odds: -110, units: 0.1 },
      ],
      false,
    );
    expect(up).toEqual({
      result: 'win',
      unitsWon: 0.01,
      unitsRisked: 0.2,
      bets: { win: 1, loss: 1, push: 0, void: 0 },
    });
    // 0.1 × 100/105 − 0.1 = −0.0048 rounds to zero: 0, not −0, and shown as even, so a push.
    const even = gradePick(
      [
        { result: 'win', odds: -105, units: 0.1 },
        { result: 'loss', odds: -110, units: 0.1 },
      ],
      false,
    );
    expect(even?.result).toBe('push');
    expect(Object.is(even?.unitsWon, 0)).toBe(true);
  });
});

describe('summariseRecord', () => {
  const one = (result: PickGrade['result']) => ({ win: 0, loss: 0, push: 0, void: 0, [result]: 1 });
  const grade = (result: PickGrade['result'], unitsWon: number, unitsRisked: number): PickGrade => ({
    result,
    unitsWon,
    unitsRisked,
    bets: one(result),
  });

  it('counts bets and sums units, with win % and ROI to one decimal', () => {
    const picks: PickGrade[] = [
      grade('win', 0.91, 1),
      grade('win', 3, 2),
      grade('loss', -1.1, 1.1),
      grade('push', 0, 0),
      grade('void', 0, 0),
    ];
    // 2/3 = 66.67% → 66.7; 0.91 + 3 − 1.1 = 2.81 over 1 + 2 + 1.1 = 4.1 → 68.536% → 68.5.
    expect(summariseRecord(picks)).toEqual({
      wins: 2,
      losses: 1,
      pushes: 1,
      voids: 1,
      graded: 5,
      picks: 5,
      winPct: 66.7,
      unitsWon: 2.81,
      unitsRisked: 4.1,
      roi: 68.5,
      clv: null,
    });
  });

  it('counts each leg of a straight pick as a bet: two picks, five bets', () => {
    const summary = summariseRecord([
      { result: 'loss', unitsWon: -0.09, unitsRisked: 2, bets: { win: 1, loss: 1, push: 0, void: 0 } },
      { result: 'win', unitsWon: 1.5, unitsRisked: 2, bets: { win: 1, loss: 1, push: 0, void: 1 } },
    ]);
    expect(summary).toMatchObject({ wins: 2, losses: 2, voids: 1, graded: 5, picks: 2, winPct: 50 });
  });

  it('averages the CLV of the bets that closed, and the share that beat the close', () => {
    const summary = summariseRecord([
      { ...grade('win', 1, 1), clv: { bets: 1, sum: 3.6147, beat: 1 } },
      { ...grade('loss', -1, 1), clv: { bets: 2, sum: -1.2, beat: 1 } },
      grade('win', 1, 1),
    ]);
    // (3.6147 − 1.2) / 3 = 0.8049 → 0.80; 2 of 3 beat the close.
    expect(summary.clv).toEqual({ bets: 3, average: 0.8, beatPct: 66.7 });
  });

  it('has no win % without wins or losses and no ROI without units risked', () => {
    expect(summariseRecord([])).toEqual({
      wins: 0,
      losses: 0,
      pushes: 0,
      voids: 0,
      graded: 0,
      picks: 0,
      winPct: null,
      unitsWon: 0,
      unitsRisked: 0,
      roi: null,
      clv: null,
    });
    const pushes = summariseRecord([grade('push', 0, 0), grade('void', 0, 0)]);
    expect(pushes.winPct).toBeNull();
    expect(pushes.roi).toBeNull();
    expect(pushes.graded).toBe(2);
  });

  it('sums without float drift and reports a losing record with negative units and ROI', () => {
    // 0.1 + 0.2 − 1 = −0.7 (−0.7000000000000001 in floats); 0.7 / 3 = 23.33% lost.
    const summary = summariseRecord([grade('win', 0.1, 1), grade('win', 0.2, 1), grade('loss', -1, 1)]);
    expect(summary.unitsWon).toBe(-0.7);
    expect(summary.unitsRisked).toBe(3);
    expect(summary.roi).toBe(-23.3);
    expect(summary.winPct).toBe(66.7);
  });
});

describe('formatUnits and recordBadge', () => {
  it('formats units with a sign and one decimal, and zero without a sign', () => {
    expect(formatUnits(23.4)).toBe('+23.4u');
    expect(formatUnits(-1.2)).toBe('-1.2u');
    expect(formatUnits(0)).toBe('0.0u');
    expect(formatUnits(2.81)).toBe('+2.8u');
    expect(formatUnits(23.45)).toBe('+23.5u');
    expect(formatUnits(-23.45)).toBe('-23.5u');
    expect(formatUnits(-0.04)).toBe('0.0u');
    expect(formatUnits(0.04)).toBe('0.0u');
  });

  const summary = (fields: Partial<RecordSummary>): RecordSummary => ({
    wins: 0,
    losses: 0,
    pushes: 0,
    voids: 0,
    graded: 0,
    picks: 0,
    winPct: null,
    unitsWon: 0,
    unitsRisked: 0,
    roi: null,
    clv: null,
    ...fields,
  });

  it('shows units, whole win %, the number of bets and the average CLV', () => {
    // 65 / 112 = 58.04% → 58.
    expect(recordBadge(summary({ wins: 65, losses: 47, graded: 112, winPct: 58, unitsWon: 23.4 }))).toBe(
      '+23.4u · 58% · 112 bets',
    );
    expect(recordBadge(summary({ losses: 1, graded: 1, winPct: 0, unitsWon: -1.2 }))).toBe(
      '-1.2u · 0% · 1 bet',
    );
    expect(
      recordBadge(
        summary({
          wins: 3,
          losses: 1,
          graded: 4,
          unitsWon: 2,
          clv: { bets: 4, average: 1.846, beatPct: 75 },
        }),
      ),
    ).toBe('+2.0u · 75% · 4 bets · CLV +1.85%');
  });

  it('rounds the win % once, from the counts', () => {
    // 5 / 11 = 45.45% → 45 (winPct's 45.5 rounded again would show 46).
    expect(recordBadge(summary({ wins: 5, losses: 6, graded: 11, winPct: 45.5, unitsWon: 0.3 }))).toBe(
      '+0.3u · 45% · 11 bets',
    );
  });

  it('shows a dash for the win % before any win or loss', () => {
    expect(recordBadge(summary({ pushes: 1, graded: 1 }))).toBe('0.0u · — · 1 bet');
    expect(recordBadge(summariseRecord([]))).toBe('0.0u · — · 0 bets');
  });
});
