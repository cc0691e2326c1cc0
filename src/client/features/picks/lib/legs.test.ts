import { describe, expect, it } from 'vitest';
import {
  LINE_REQUIRED_MESSAGE,
  ODDS_MESSAGE,
  SAME_TEAMS_MESSAGE,
  START_IN_FUTURE_MESSAGE,
  TEAM_SIDE_MESSAGE,
  UNITS_MESSAGE,
  type Leg,
} from '#common/schemas/picks.js';
import {
  draftFromLeg,
  emptyDraft,
  EVENT_REQUIRED_MESSAGE,
  formatStart,
  isoToLocalInput,
  legsFromSealed,
  legSummary,
  localInputToIso,
  parseStake,
  sameGame,
  validateDraft,
  withOffset,
  type LegDraft,
} from './legs';

const spread: Leg = {
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

describe('legSummary', () => {
  it('prints away @ home, the side with its line, the odds and the stake', () => {
    expect(legSummary(spread)).toBe('NBA · Celtics @ Lakers · Lakers −3.5 (−110) · 1u');
    expect(legSummary({ ...spread, side: 'Celtics', line: 4.5, odds: 150, units: 2.5 })).toBe(
      'NBA · Celtics @ Lakers · Celtics +4.5 (+150) · 2.5u',
    );
    expect(legSummary({ ...spread, line: 0 })).toContain('Lakers PK (−110)');
  });

  it('names a moneyline, a total and a prop in their own words', () => {
    expect(legSummary({ ...spread, market: 'moneyline', line: null, odds: 125 })).toBe(
      'NBA · Celtics @ Lakers · Lakers ML (+125) · 1u',
    );
    expect(legSummary({ ...spread, market: 'total', side: 'under', line: 220.5 })).toBe(
      'NBA · Celtics @ Lakers · Under 220.5 (−110) · 1u',
    );
    expect(
      legSummary(
        { ...spread, market: 'prop', side: 'LeBron over 7.5 assists', line: null, odds: 100 },
        {
          withStake: false,
        },
      ),
    ).toBe('NBA · Celtics @ Lakers · LeBron over 7.5 assists (+100)');
  });
});

describe('formatStart', () => {
  it('is the weekday, date and time in the given zone', () => {
    expect(formatStart('2030-06-04T02:30:00Z', { timeZone: 'America/New_York' })).toBe(
      'Mon, Jun 3, 10:30 PM',
    );
    expect(formatStart('2030-06-04T02:30:00Z', { timeZone: 'UTC' })).toBe('Tue, Jun 4, 2:30 AM');
  });
});

describe('datetime-local and ISO', () => {
  it('writes the wall time with the offset east of UTC', () => {
    expect(withOffset('2030-06-01T19:30', 120)).toBe('2030-06-01T19:30:00+02:00');
    expect(withOffset('2030-06-01T19:30', -240)).toBe('2030-06-01T19:30:00-04:00');
    expect(withOffset('2030-06-01T19:30', 330)).toBe('2030-06-01T19:30:00+05:30');
    expect(withOffset('2030-06-01T19:30', -570)).toBe('2030-06-01T19:30:00-09:30');
    expect(withOffset('2030-06-01T19:30', 0)).toBe('2030-06-01T19:30:00+00:00');
    expect(withOffset('2030-06-01T19:30:15', 0)).toBe('2030-06-01T19:30:15+00:00');
    expect(withOffset('June 1st', 0)).toBeNull();
    expect(withOffset('', 0)).toBeNull();
  });

  it("round-trips through the browser's zone, naming the same instant", () => {
    for (const local of ['2030-01-15T08:05', '2030-07-04T19:30', '2030-12-31T23:59']) {
      const iso = localInputToIso(local)!;
      expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00[+-]\d{2}:\d{2}$/);
      expect(Date.parse(iso)).toBe(new Date(local).getTime());
      expect(isoToLocalInput(iso)).toBe(local);
    }
    expect(localInputToIso('2030-13-45T99:99')).toBeNull();
    expect(isoToLocalInput('not a time')).toBe('');
  });
});

describe('validateDraft', () => {
  const now = new Date('2030-06-01T00:00:00Z');
  const draft = (overrides: Partial<LegDraft> = {}): LegDraft => ({
    ...emptyDraft(),
    league: 'NBA',
    eventId: 'new',
    home: 'Lakers',
    away: 'Celtics',
    startsLocal: isoToLocalInput('2030-06-04T02:30:00Z'),
    market: 'spread',
    side: 'Lakers',
    line: '-3.5',
    odds: '-110',
    units: '1',
    ...overrides,
  });

  it('answers the leg as the server will read it', () => {
    const result = validateDraft(draft(), now);
    expect(result).toEqual({ ok: true, leg: spread });
    expect(validateDraft(draft({ odds: '+150', side: 'celtics', line: '4.5' }), now)).toMatchObject({
      ok: true,
      leg: { odds: 150, side: 'Celtics', line: 4.5 },
    });
  });

  it("gives each field the schema's message", () => {
    expect(validateDraft(draft({ odds: '50' }), now)).toEqual({ ok: false, errors: { odds: ODDS_MESSAGE } });
    expect(validateDraft(draft({ units: '11' }), now)).toEqual({
      ok: false,
      errors: { units: UNITS_MESSAGE },
    });
    expect(validateDraft(draft({ line: '' }), now)).toEqual({
      ok: false,
      errors: { line: LINE_REQUIRED_MESSAGE },
    });
    expect(validateDraft(draft({ side: 'Knicks' }), now)).toEqual({
      ok: false,
      errors: { side: TEAM_SIDE_MESSAGE },
    });
    expect(validateDraft(draft({ away: 'lakers' }), now)).toMatchObject({
      ok: false,
      errors: { away: SAME_TEAMS_MESSAGE },
    });
  });

  it('asks for a league, then a game, before complaining about teams', () => {
    const none = validateDraft(emptyDraft(), now);
    expect(none.ok).toBe(false);
    expect(!none.ok && none.errors.league).toBe('Please choose a league from the list');
    expect(!none.ok && none.errors.home).toBeUndefined();
    const noGame = validateDraft(draft({ eventId: null, home: '', away: '', startsLocal: '' }), now);
    expect(!noGame.ok && noGame.errors).toMatchObject({ event: EVENT_REQUIRED_MESSAGE });
    expect(!noGame.ok && noGame.errors.home).toBeUndefined();
  });

  it('refuses a game that has started, on the start field or on the chosen event', () => {
    const past = isoToLocalInput('2030-05-31T20:00:00Z');
    expect(validateDraft(draft({ startsLocal: past }), now)).toEqual({
      ok: false,
      errors: { startsAt: START_IN_FUTURE_MESSAGE },
    });
    expect(validateDraft(draft({ startsLocal: past, eventId: 7 }), now)).toEqual({
      ok: false,
      errors: { event: START_IN_FUTURE_MESSAGE },
    });
  });

  it('puts a saved leg back into the form unchanged', () => {
    const result = validateDraft(draftFromLeg({ ...spread, odds: 150 }, 'new'), now);
    expect(result).toEqual({ ok: true, leg: { ...spread, odds: 150 } });
  });
});

describe('sameGame', () => {
  it("is the server's key: league, teams ignoring case, the same instant", () => {
    const event = { league: 'NBA', home: 'LAKERS', away: 'celtics', startsAt: '2030-06-04T02:30:00Z' };
    expect(sameGame(event, { ...spread, startsAt: '2030-06-03T22:30:00-04:00' })).toBe(true);
    expect(sameGame(event, { ...spread, league: 'NFL' })).toBe(false);
    expect(sameGame(event, { ...spread, startsAt: '2030-06-04T03:30:00Z' })).toBe(false);
  });
});

describe('parseStake', () => {
  it("takes a parlay's stake by the units rule", () => {
    expect(parseStake(spread, '2.5')).toEqual({ ok: true, units: 2.5 });
    expect(parseStake(spread, '0.05')).toEqual({ ok: false, message: UNITS_MESSAGE });
    expect(parseStake(spread, '')).toEqual({ ok: false, message: UNITS_MESSAGE });
  });
});

describe('legsFromSealed', () => {
  it('reads the sealed legs back as legs, or refuses them', () => {
    expect(legsFromSealed([spread])).toEqual([spread]);
    expect(legsFromSealed([{ ...spread, odds: 20 }])).toBeNull();
  });
});
