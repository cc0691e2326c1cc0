import { describe, expect, it } from 'vitest';
import type { LoggedBets, LoggedResult } from '../common/pick-log/index.js';
import type { PickHistory } from './pick-history.js';
import {
  countedPicks,
  recordDifferences,
  recordOf,
  round,
  sameUsername,
  type CapperRecord,
} from './record.js';

let nextVideo = 1;
/** One bet of the pick's own result unless `bets` says otherwise; bound to the market unless said. */
function pick(
  capper: string,
  result: LoggedResult | null,
  unitsWon: number | null,
  unitsRisked: number | null,
  extra: Partial<PickHistory> = {},
  grade: { bets?: LoggedBets | null; selfReported?: boolean | null } = {},
): PickHistory {
  const bets = result === null ? null : { win: 0, loss: 0, push: 0, void: 0, [result]: 1 };
  return {
    videoId: nextVideo++,
    capper,
    commitment: 'ab'.repeat(32),
    grade: {
      index: nextVideo,
      result,
      unitsWon,
      unitsRisked,
      bets,
      selfReported: false,
      regraded: true,
      ...grade,
    },
    gradedAt: result === null ? null : '2026-03-01T12:00:00Z',
    league: 'NBA',
    clv: null,
    removedByModeration: false,
    removedByCapper: false,
    sealed: null,
    clvLegs: null,
    lateLegs: null,
    ...extra,
  };
}

describe('round', () => {
  it('rounds half away from zero as the printed number reads, never -0', () => {
    expect(round(1.005, 2)).toBe(1.01);
    expect(round(-1.005, 2)).toBe(-1.01);
    expect(round(2.675, 2)).toBe(2.68);
    expect(round(34.032258, 1)).toBe(34);
    expect(round(-0.004, 2)).toBe(0);
    expect(Object.is(round(-0.004, 2), -0)).toBe(false);
    expect(round(12.25, 1)).toBe(12.3);
    expect(round(-12.25, 1)).toBe(-12.3);
  });

  it('gives a number already of that many places back as the decimal text would round it', () => {
    // The text's way alone, which a shortcut for already-rounded numbers must agree with.
    const byText = (value: number, decimals: number) => {
      const [mantissa, exponent = '0'] = Math.abs(value).toPrecision(15).split('e');
      const rounded =
        (Math.sign(value) * Math.round(Number(`${mantissa}e${Number(exponent) + decimals}`))) /
        10 ** decimals;
      return rounded === 0 ? 0 : rounded;
    };
    let sum = 0;
    for (let i = 0; i < 2_000; i++) {
      const cents = Math.round(Math.sin(i) * 1e6);
      sum += cents / 100;
      for (const value of [cents / 100, cents / 1000, sum, -sum, sum * 3.7, 1e17 + cents, -0])
        for (const decimals of [0, 1, 2, 4]) expect(round(value, decimals)).toBe(byText(value, decimals));
    }
  });
});

describe('recordOf', () => {
  it('counts each result, sums units (to the cent, float noise gone), ROI from the rounded sums', () => {
    const picks = [
      pick('a', 'win', 0.1, 1),
      pick('a', 'win', 0.2, 1),
      pick('a', 'loss', -1, 1),
      pick('a', 'push', 0, 1),
      pick('a', 'void', 0, 0),
    ];
    expect(recordOf(picks)).toEqual({
      wins: 2,
      losses: 1,
      pushes: 1,
      voids: 1,
      graded: 5,
      picks: 5,
      unitsWon: -0.7,
      unitsRisked: 4,
      roi: -17.5,
      winPct: 66.7,
      clv: null,
    });
  });

  it('sums CLV exactly over the bets that have one: the average to 0.01%, the share beating the close', () => {
    const picks = [
      pick('a', 'win', 0.9, 1, { clv: { bets: 1, sum: 12_345, beat: 1 } }),
      pick('a', 'loss', -1, 1, { clv: { bets: 2, sum: -5_000, beat: 0 } }),
      pick('a', 'loss', -1, 1),
    ];
    expect(recordOf(picks).clv).toEqual({ bets: 3, average: 0.24, beatPct: 33.3 });
  });

  it('has no ROI while nothing was risked and no win rate before a win or loss', () => {
    expect(recordOf([pick('a', 'void', 0, 0)])).toMatchObject({ roi: null, winPct: null, graded: 1 });
    expect(recordOf([])).toMatchObject({ graded: 0, unitsWon: 0, roi: null, winPct: null });
  });

  it('counts bets, not picks: a straight two-leg pick that went 1-1 is a win and a loss', () => {
    const split = pick('a', 'win', 0.1, 2, {}, { bets: { win: 1, loss: 1, push: 0, void: 0 } });
    expect(recordOf([split])).toMatchObject({ wins: 1, losses: 1, graded: 2, picks: 1, winPct: 50 });
  });

  it('refuses a graded pick whose entry lacks the units or the bets', () => {
    expect(() => recordOf([pick('a', 'win', 1, null)])).toThrow(/without unitsWon, unitsRisked and bets/);
    expect(() => recordOf([pick('a', 'win', 1, 1, {}, { bets: null })])).toThrow(/and bets/);
  });
});

describe('countedPicks', () => {
  it("keeps the capper's graded picks, removed by the capper or not, without moderated or ungraded ones", () => {
    const kept = pick('Alice', 'loss', -1, 1, { removedByCapper: true });
    const picks = [
      kept,
      pick('alice', 'win', 1, 1, { removedByModeration: true }),
      pick('alice', null, null, null),
      { ...pick('alice', 'win', 1, 1), grade: null },
      pick('bob', 'win', 1, 1),
    ];
    expect(countedPicks(picks, 'ALICE')).toEqual([kept]);
  });

  it('never counts a self-reported pick, nor one graded before picks were bound to the market', () => {
    const bound = pick('alice', 'win', 1, 1);
    const picks = [
      bound,
      pick('alice', 'win', 1, 1, {}, { selfReported: true }),
      // An entry without `selfReported`: logged before the market, self-reported since (docs/pick-log.md).
      pick('alice', 'win', 1, 1, {}, { selfReported: null }),
    ];
    expect(countedPicks(picks, 'alice')).toEqual([bound]);
  });

  it('compares usernames as the site does: NFKC and case folded', () => {
    expect(sameUsername('ＣＡＰＰＥＲ', 'capper')).toBe(true);
    expect(sameUsername('Straße', 'STRASSE')).toBe(true);
    expect(sameUsername('capper', 'capper2')).toBe(false);
  });
});

describe('recordDifferences', () => {
  const log: CapperRecord = {
    wins: 24,
    losses: 13,
    pushes: 2,
    voids: 0,
    graded: 39,
    picks: 35,
    unitsWon: 24.7,
    unitsRisked: 200.8,
    roi: 12.3,
    winPct: 64.9,
    clv: { bets: 30, average: 1.25, beatPct: 56.7 },
  };

  it('is empty when the profile agrees, units compared to the cent', () => {
    const claim = {
      username: 'a',
      gradedTotal: 35,
      record: { ...log, unitsWon: 24.700000001, roi: 12.30001 },
    };
    expect(recordDifferences(log, claim)).toEqual([]);
  });

  it('names every figure that differs', () => {
    const claim = {
      username: 'a',
      gradedTotal: 41,
      record: { ...log, graded: 41, picks: 36, wins: 1, unitsRisked: 200.81, roi: null, winPct: 65 },
    };
    expect(recordDifferences(log, claim)).toEqual([
      'the profile claims 41 graded bets, the log has 39',
      'the profile claims 36 graded picks, the log has 35',
      'the profile lists 41 graded picks, the log has 35',
      'the profile claims 1 win, the log has 24',
      'the profile claims 200.81u risked, the log has 200.80u',
      'the profile claims an ROI of none, the log has 12.3%',
      'the profile claims a win rate of 65.0%, the log has 64.9%',
    ]);
    expect(
      recordDifferences(log, {
        username: 'a',
        gradedTotal: 35,
        record: { ...log, clv: { bets: 30, average: 1.5, beatPct: 56.7 } },
      }),
    ).toEqual(['the profile claims an average CLV of 1.50%, the log has 1.25%']);
  });
});
