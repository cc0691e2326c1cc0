import { describe, expect, it } from 'vitest';
import {
  LINE_REQUIRED_MESSAGE,
  ODDS_MESSAGE,
  ODDS_REQUIRED_MESSAGE,
  ONE_LEG_PER_GAME_MESSAGE,
  SAME_TEAMS_MESSAGE,
  START_IN_FUTURE_MESSAGE,
  START_WITHIN_MESSAGE,
  TEAM_SIDE_MESSAGE,
  UNITS_MESSAGE,
  type Leg,
} from '#common/schemas/picks.js';
import {
  draftFromLeg,
  draftKey,
  emptyDraft,
  EVENT_REQUIRED_MESSAGE,
  followsMarket,
  formatStart,
  isoToLocalInput,
  legsContradiction,
  legsFromSealed,
  legSummary,
  localInputToIso,
  MARKET_EVENT_MESSAGE,
  MARKET_PRICE_MESSAGE,
  marketPriceProblem,
  offerOf,
  offersFor,
  parseStake,
  sameGame,
  validateDraft,
  withOffset,
  type LegDraft,
  type Offer,
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
  eventId: null,
};

/** No market: every leg is self-reported, as before the market. */
const NO_MARKET: string[] = [];
const MARKET = ['NBA', 'NFL'];

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

  it('says a market leg left without odds takes the best price', () => {
    expect(legSummary({ ...spread, odds: null, eventId: 12 })).toBe(
      'NBA · Celtics @ Lakers · Lakers −3.5 (best price) · 1u',
    );
  });
});

describe('followsMarket', () => {
  it('binds a moneyline, spread or total in a followed league; props, other and other leagues are self-reported', () => {
    expect(followsMarket({ league: 'NBA', market: 'spread' }, MARKET)).toBe(true);
    expect(followsMarket({ league: 'NFL', market: 'total' }, MARKET)).toBe(true);
    expect(followsMarket({ league: 'NBA', market: 'moneyline' }, MARKET)).toBe(true);
    expect(followsMarket({ league: 'NBA', market: 'prop' }, MARKET)).toBe(false);
    expect(followsMarket({ league: 'NBA', market: 'other' }, MARKET)).toBe(false);
    expect(followsMarket({ league: 'Tennis', market: 'moneyline' }, MARKET)).toBe(false);
    expect(followsMarket({ league: 'NBA', market: 'spread' }, NO_MARKET)).toBe(false);
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
    const result = validateDraft(draft(), now, NO_MARKET);
    expect(result).toEqual({ ok: true, leg: spread });
    expect(
      validateDraft(draft({ odds: '+150', side: 'celtics', line: '4.5' }), now, NO_MARKET),
    ).toMatchObject({
      ok: true,
      leg: { odds: 150, side: 'Celtics', line: 4.5 },
    });
  });

  it("gives each field the schema's message", () => {
    expect(validateDraft(draft({ odds: '50' }), now, NO_MARKET)).toEqual({
      ok: false,
      errors: { odds: ODDS_MESSAGE },
    });
    expect(validateDraft(draft({ units: '11' }), now, NO_MARKET)).toEqual({
      ok: false,
      errors: { units: UNITS_MESSAGE },
    });
    expect(validateDraft(draft({ line: '' }), now, NO_MARKET)).toEqual({
      ok: false,
      errors: { line: LINE_REQUIRED_MESSAGE },
    });
    expect(validateDraft(draft({ side: 'Knicks' }), now, NO_MARKET)).toEqual({
      ok: false,
      errors: { side: TEAM_SIDE_MESSAGE },
    });
    expect(validateDraft(draft({ away: 'lakers' }), now, NO_MARKET)).toMatchObject({
      ok: false,
      errors: { away: SAME_TEAMS_MESSAGE },
    });
  });

  it('asks for a league, then a game, before complaining about teams', () => {
    const none = validateDraft(emptyDraft(), now, NO_MARKET);
    expect(none.ok).toBe(false);
    expect(!none.ok && none.errors.league).toBe('Please choose a league from the list');
    expect(!none.ok && none.errors.home).toBeUndefined();
    const noGame = validateDraft(
      draft({ eventId: null, home: '', away: '', startsLocal: '' }),
      now,
      NO_MARKET,
    );
    expect(!noGame.ok && noGame.errors).toMatchObject({ event: EVENT_REQUIRED_MESSAGE });
    expect(!noGame.ok && noGame.errors.home).toBeUndefined();
  });

  it('refuses a game that has started, on the start field or on the chosen event', () => {
    const past = isoToLocalInput('2030-05-31T20:00:00Z');
    expect(validateDraft(draft({ startsLocal: past }), now, NO_MARKET)).toEqual({
      ok: false,
      errors: { startsAt: START_IN_FUTURE_MESSAGE },
    });
    expect(validateDraft(draft({ startsLocal: past, eventId: 7 }), now, NO_MARKET)).toEqual({
      ok: false,
      errors: { event: START_IN_FUTURE_MESSAGE },
    });
  });

  it('puts a saved leg back into the form unchanged', () => {
    const result = validateDraft(draftFromLeg({ ...spread, odds: 150 }, 'new'), now, NO_MARKET);
    expect(result).toEqual({ ok: true, leg: { ...spread, odds: 150 } });
  });

  it('reads typed odds as a JSON integer, and refuses what is not American odds', () => {
    const odds = (text: string) => {
      const result = validateDraft(draft({ odds: text }), now, NO_MARKET);
      return result.ok ? result.leg.odds : result.errors.odds;
    };
    expect(odds('+150')).toBe(150);
    expect(odds(' 150 ')).toBe(150);
    expect(odds('-110')).toBe(-110);
    expect(odds('−110')).toBe(-110);
    expect(odds('–120')).toBe(-120);
    expect(odds('0x96')).toBe(ODDS_MESSAGE);
    expect(odds('1.5')).toBe(ODDS_MESSAGE);
    expect(odds('-99')).toBe(ODDS_MESSAGE);
    expect(odds('+15000')).toBe(ODDS_MESSAGE);
    expect(odds('')).toBe(ODDS_REQUIRED_MESSAGE);
  });

  describe('a market leg', () => {
    const market = (overrides: Partial<LegDraft> = {}) =>
      draft({ eventId: 12, odds: '', startsLocal: isoToLocalInput('2030-06-04T02:30:00Z'), ...overrides });

    it('may leave its odds empty: the best price when posted; sent with its game', () => {
      expect(validateDraft(market(), now, MARKET)).toEqual({
        ok: true,
        leg: { ...spread, odds: null, eventId: 12 },
      });
      expect(validateDraft(market({ odds: '-115' }), now, MARKET)).toMatchObject({
        ok: true,
        leg: { odds: -115, eventId: 12 },
      });
    });

    it("asks for one of the market's prices before its side is chosen", () => {
      expect(validateDraft(market({ side: '', line: '' }), now, MARKET)).toEqual({
        ok: false,
        errors: { side: MARKET_PRICE_MESSAGE, line: LINE_REQUIRED_MESSAGE },
      });
    });

    it("is on one of the market's games, never one the capper adds", () => {
      expect(validateDraft(market({ eventId: 'new' }), now, MARKET)).toMatchObject({
        ok: false,
        errors: { event: MARKET_EVENT_MESSAGE },
      });
      expect(
        validateDraft(market({ eventId: null, home: '', away: '', startsLocal: '' }), now, MARKET),
      ).toMatchObject({ ok: false, errors: { event: MARKET_EVENT_MESSAGE } });
    });

    it('is not held to the self-reported 14 days, only to a start in the future', () => {
      const far = isoToLocalInput('2030-07-20T00:00:00Z');
      expect(validateDraft(market({ startsLocal: far }), now, MARKET).ok).toBe(true);
      const past = isoToLocalInput('2030-05-31T20:00:00Z');
      expect(validateDraft(market({ startsLocal: past }), now, MARKET)).toEqual({
        ok: false,
        errors: { event: START_IN_FUTURE_MESSAGE },
      });
    });
  });

  describe('a self-reported leg', () => {
    it('needs its odds: a prop, or any leg in a league the market does not follow', () => {
      const prop = draft({ market: 'prop', side: 'LeBron over 7.5 assists', line: '', odds: '' });
      expect(validateDraft(prop, now, MARKET)).toEqual({
        ok: false,
        errors: { odds: ODDS_REQUIRED_MESSAGE },
      });
      expect(validateDraft(draft({ league: 'Tennis', odds: '' }), now, MARKET)).toMatchObject({
        ok: false,
        errors: { odds: ODDS_REQUIRED_MESSAGE },
      });
      expect(validateDraft({ ...prop, odds: '+120' }, now, MARKET)).toMatchObject({
        ok: true,
        leg: { market: 'prop', odds: 120 },
      });
    });

    it('starts within 14 days, on the start field or on the chosen game', () => {
      const within = isoToLocalInput('2030-06-14T23:00:00Z');
      expect(validateDraft(draft({ startsLocal: within }), now, NO_MARKET).ok).toBe(true);
      const beyond = isoToLocalInput('2030-06-15T00:01:00Z');
      expect(validateDraft(draft({ startsLocal: beyond }), now, NO_MARKET)).toEqual({
        ok: false,
        errors: { startsAt: START_WITHIN_MESSAGE },
      });
      expect(validateDraft(draft({ startsLocal: beyond, eventId: 7 }), now, NO_MARKET)).toEqual({
        ok: false,
        errors: { event: START_WITHIN_MESSAGE },
      });
      // A prop in a followed league is self-reported too.
      const prop = draft({ market: 'prop', side: 'LeBron over 7.5 assists', line: '', startsLocal: beyond });
      expect(validateDraft(prop, now, MARKET)).toEqual({
        ok: false,
        errors: { startsAt: START_WITHIN_MESSAGE },
      });
    });
  });
});

describe('legsContradiction', () => {
  const ml = { ...spread, market: 'moneyline' as const, line: null };

  it('refuses both sides of one game, whatever the offset its start is written in', () => {
    expect(legsContradiction([ml, { ...ml, side: 'Celtics', startsAt: '2030-06-03T22:30:00-04:00' }])).toBe(
      "A pick cannot take both sides of one game's moneyline",
    );
    expect(legsContradiction([spread, { ...spread, side: 'Celtics', line: 3.5 }])).toBe(
      "A pick cannot take both sides of one game's spread",
    );
  });

  it('refuses over and under of one total, and the same market twice on one game', () => {
    const over = { ...spread, market: 'total' as const, side: 'over', line: 220.5 };
    expect(legsContradiction([over, { ...over, side: 'under' }])).toBe(
      "A pick cannot take both the over and the under of one game's total",
    );
    expect(legsContradiction([spread, { ...spread, line: -4.5 }])).toBe(ONE_LEG_PER_GAME_MESSAGE);
  });

  it('takes a moneyline and a spread on one game, props side by side, and other games', () => {
    expect(legsContradiction([ml, spread])).toBeNull();
    const prop = { ...spread, market: 'prop' as const, side: 'LeBron over 7.5 assists', line: null };
    expect(legsContradiction([prop, { ...prop, side: 'LeBron under 7.5 assists' }])).toBeNull();
    expect(legsContradiction([ml, { ...ml, side: 'Celtics', startsAt: '2030-06-05T02:30:00Z' }])).toBeNull();
    expect(legsContradiction([ml, { ...ml, league: 'NFL', side: 'Celtics' }])).toBeNull();
  });

  it("reads a draft's game, market and side once they are all there", () => {
    const typed: LegDraft = {
      ...emptyDraft(),
      league: 'NBA',
      eventId: 12,
      home: 'Lakers',
      away: 'Celtics',
      startsLocal: isoToLocalInput('2030-06-04T02:30:00Z'),
      market: 'moneyline',
      side: 'Celtics',
    };
    const key = draftKey(typed)!;
    expect(legsContradiction([ml, key])).toBe("A pick cannot take both sides of one game's moneyline");
    expect(draftKey({ ...typed, side: '' })).toBeNull();
    expect(draftKey({ ...typed, startsLocal: '' })).toBeNull();
  });
});

describe('market prices', () => {
  const prices = {
    eventId: 12,
    takenAt: '2030-06-01T00:00:00Z',
    moneyline: [
      { side: 'Celtics', line: null, odds: 120, book: 'FanDuel' },
      { side: 'Lakers', line: null, odds: -135, book: 'DraftKings' },
    ],
    spread: [
      { side: 'Lakers', line: -3.5, odds: -110, book: 'BetMGM' },
      { side: 'Lakers', line: -3, odds: -120, book: 'Bovada' },
      { side: 'Celtics', line: 3.5, odds: -105, book: 'LowVig.ag' },
    ],
    total: [],
  };
  const offers: readonly Offer[] = prices.spread;

  it("lists a priced market's offers and finds the one a side and line name", () => {
    expect(offersFor(prices, 'moneyline')).toHaveLength(2);
    expect(offersFor(prices, 'prop')).toEqual([]);
    expect(offersFor(undefined, 'spread')).toEqual([]);
    expect(offerOf(offers, { market: 'spread', side: 'lakers', line: '-3' })?.book).toBe('Bovada');
    expect(offerOf(prices.moneyline, { market: 'moneyline', side: 'Celtics', line: '' })?.odds).toBe(120);
    expect(offerOf(offers, { market: 'spread', side: 'Lakers', line: '-4.5' })).toBeUndefined();
  });

  it('refuses odds better than the best among books, takes the same or worse, or none', () => {
    const leg = { market: 'spread' as const, side: 'Lakers', line: '-3.5' };
    expect(marketPriceProblem(offers, { ...leg, odds: '-105' })).toEqual({
      field: 'odds',
      message:
        "−105 beats the market's best price, −110 at BetMGM: enter that price or a worse one, or leave it empty",
    });
    expect(marketPriceProblem(offers, { ...leg, odds: '+100' })?.field).toBe('odds');
    expect(marketPriceProblem(offers, { ...leg, odds: '-110' })).toBeNull();
    expect(marketPriceProblem(offers, { ...leg, odds: '-125' })).toBeNull();
    expect(marketPriceProblem(offers, { ...leg, odds: '' })).toBeNull();
    // Not odds at all: the schema's message says so, not this check.
    expect(marketPriceProblem(offers, { ...leg, odds: '50' })).toBeNull();
  });

  it('refuses a side and line no book offers; says nothing before a side is chosen or prices are in', () => {
    expect(
      marketPriceProblem(offers, { market: 'spread', side: 'Lakers', line: '-6.5', odds: '' })?.field,
    ).toBe('side');
    expect(marketPriceProblem(offers, { market: 'spread', side: '', line: '', odds: '' })).toBeNull();
    expect(marketPriceProblem([], { market: 'spread', side: 'Lakers', line: '-6.5', odds: '' })).toBeNull();
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

  it("keeps a market leg's bet and price, and leaves its evidence to the server", () => {
    const sealed = {
      ...spread,
      eventId: undefined,
      game: 'the-odds-api:abc123',
      price: { book: 'betmgm', odds: -110, line: -3.5, at: '2030-06-01T00:00:00Z' },
    };
    expect(legsFromSealed([sealed])).toEqual([spread]);
  });
});
