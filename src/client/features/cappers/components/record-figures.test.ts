import { describe, expect, it } from 'vitest';
import { summariseRecord, type RecordSummary } from '#common/pick-grading.js';
import { beatCloseText, betsInPicks, clvTrendClass, formatRecordClv, formatWlp } from './record-figures';

const record = (overrides: Partial<RecordSummary> = {}): RecordSummary => ({
  ...summariseRecord([]),
  ...overrides,
});

describe('record figures', () => {
  it('counts bets, in the picks they came in', () => {
    const summary = record({ wins: 20, losses: 19, pushes: 3, graded: 42, picks: 30 });
    expect(formatWlp(summary)).toBe('20-19-3');
    expect(betsInPicks(summary)).toBe('42 bets in 30 picks');
    expect(betsInPicks(record({ graded: 1, picks: 1 }))).toBe('1 bet in 1 pick');
  });

  it('prints the average CLV and the share that beat the close, or a dash before there is one', () => {
    const summary = record({ clv: { bets: 40, average: 1.85, beatPct: 58.3 } });
    expect(formatRecordClv(summary)).toBe('+1.85%');
    expect(beatCloseText(summary)).toBe('58.3% of 40 bets beat the close');
    expect(clvTrendClass(summary)).toBe('text-emerald-700');
    expect(clvTrendClass(record({ clv: { bets: 2, average: -0.4, beatPct: 0 } }))).toBe('text-destructive');
    expect(formatRecordClv(record())).toBe('—');
    expect(beatCloseText(record())).toBe('No closing prices yet');
    expect(clvTrendClass(record())).toBe('text-foreground');
  });
});
