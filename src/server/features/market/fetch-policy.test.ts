import { describe, expect, it } from 'vitest';
import {
  backoffSeconds,
  CLOSING_LEAD_SECONDS,
  LOW_CREDITS,
  planFetches,
  type LeagueView,
} from './fetch-policy.js';

const now = new Date('2026-11-28T18:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
const ahead = (seconds: number) => new Date(now.getTime() + seconds * 1000);
const league = (view: Partial<LeagueView> = {}): LeagueView => ({
  scheduleAt: ago(10),
  oddsAt: ago(3600),
  scoresAt: null,
  nextStartWithLegs: null,
  awaitingScores: false,
  failures: 0,
  failedAt: null,
  ...view,
});
const options = { tickSeconds: 60, creditsLeft: 400, exhaustedUntil: null };

describe('planFetches', () => {
  it('reads the free schedule once a tick, and spends nothing on prices nobody needs', () => {
    expect(planFetches(league(), now, options)).toEqual({ schedule: false, odds: false, scores: false });
    expect(planFetches(league({ scheduleAt: ago(60) }), now, options)).toEqual({
      schedule: true,
      odds: false,
      scores: false,
    });
    expect(planFetches(league({ scheduleAt: null }), now, options).schedule).toBe(true);
  });

  it('takes one closing snapshot in the last minutes before a start that legs are on', () => {
    const soon = league({ nextStartWithLegs: ahead(CLOSING_LEAD_SECONDS - 10) });
    expect(planFetches(soon, now, options).odds).toBe(true);
    // Already taken within the lead: not again for the same start.
    expect(planFetches({ ...soon, oddsAt: ago(5) }, now, options).odds).toBe(false);
    // Too early yet.
    expect(planFetches(league({ nextStartWithLegs: ahead(3600) }), now, options).odds).toBe(false);
    // A slow tick widens the lead to two ticks.
    expect(
      planFetches(league({ nextStartWithLegs: ahead(500) }), now, { ...options, tickSeconds: 300 }).odds,
    ).toBe(true);
  });

  it('reads scores every five minutes while a game with legs awaits its result, every half hour on low credits', () => {
    const waiting = league({ awaitingScores: true, scoresAt: ago(301) });
    expect(planFetches(waiting, now, options).scores).toBe(true);
    expect(planFetches({ ...waiting, scoresAt: ago(120) }, now, options).scores).toBe(false);
    const low = { ...options, creditsLeft: LOW_CREDITS - 1 };
    expect(planFetches(waiting, now, low).scores).toBe(false);
    expect(planFetches({ ...waiting, scoresAt: ago(1801) }, now, low).scores).toBe(true);
    // Low credits: no closing snapshot either (prices are fetched only for a posting).
    expect(planFetches(league({ nextStartWithLegs: ahead(60) }), now, low).odds).toBe(false);
  });

  it('spends nothing while the quota is spent, and backs off a failing league', () => {
    const busy = league({ scheduleAt: ago(120), awaitingScores: true, nextStartWithLegs: ahead(30) });
    expect(planFetches(busy, now, { ...options, exhaustedUntil: ahead(600) })).toEqual({
      schedule: true,
      odds: false,
      scores: false,
    });
    expect(planFetches({ ...busy, failures: 3, failedAt: ago(60) }, now, options)).toEqual({
      schedule: false,
      odds: false,
      scores: false,
    });
    expect(planFetches({ ...busy, failures: 3, failedAt: ago(121) }, now, options).schedule).toBe(true);
    expect([1, 2, 3, 10].map(backoffSeconds)).toEqual([30, 60, 120, 1800]);
  });

  it('reads free scores (ESPN) every five minutes whatever the provider’s quota says', () => {
    const waiting = league({ scheduleAt: ago(120), awaitingScores: true, scoresAt: ago(301) });
    const spent = { ...options, exhaustedUntil: ahead(600), freeScores: true };
    expect(planFetches(waiting, now, spent)).toEqual({ schedule: true, odds: false, scores: true });
    expect(planFetches(waiting, now, { ...options, creditsLeft: 1, freeScores: true }).scores).toBe(true);
  });
});
