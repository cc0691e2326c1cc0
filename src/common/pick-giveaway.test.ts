import { describe, expect, it } from 'vitest';
import {
  giveawayMessage,
  giveawayPhrases,
  pickGiveaway,
  teamAliases,
  type GiveawayLeg,
} from './pick-giveaway.js';

const knicksMl: GiveawayLeg = {
  home: 'Boston Celtics',
  away: 'New York Knicks',
  market: 'moneyline',
  side: 'New York Knicks',
  line: null,
};
const lakersSpread: GiveawayLeg = {
  home: 'Los Angeles Lakers',
  away: 'Denver Nuggets',
  market: 'spread',
  side: 'Los Angeles Lakers',
  line: -3.5,
};
const over: GiveawayLeg = { home: 'Kansas', away: 'Duke', market: 'total', side: 'over', line: 131.5 };
const under: GiveawayLeg = {
  home: 'Kansas City Chiefs',
  away: 'Buffalo Bills',
  market: 'total',
  side: 'under',
  line: 48.5,
};
const wholeUnder: GiveawayLeg = { ...under, line: 48 };
const prop: GiveawayLeg = {
  home: 'Los Angeles Lakers',
  away: 'Denver Nuggets',
  market: 'prop',
  side: 'LeBron James over 25.5 points',
  line: null,
};

const phrases = (text: string, ...legs: GiveawayLeg[]) => giveawayPhrases(text, legs);

describe('teamAliases', () => {
  it('is the whole name, the nickname and the city', () => {
    expect(teamAliases('New York Knicks')).toEqual(
      expect.arrayContaining(['new york knicks', 'knicks', 'new york', 'york knicks']),
    );
    expect(teamAliases('Portland Trail Blazers')).toEqual(
      expect.arrayContaining(['trail blazers', 'portland', 'blazers']),
    );
  });

  it('leaves out single words that name no team', () => {
    expect(teamAliases('New York Knicks')).not.toContain('new');
    expect(teamAliases('Manchester City')).not.toContain('city');
  });
});

describe('giveawayPhrases: a moneyline or spread side', () => {
  it('finds the team with ML, moneyline or money line, by nickname, city or whole name', () => {
    expect(phrases('Knicks ML tonight', knicksMl)).toEqual(['Knicks ML']);
    expect(phrases('knicks moneyline is the play', knicksMl)).toEqual(['knicks moneyline']);
    expect(phrases('New York money line', knicksMl)).toEqual(['New York money line']);
    expect(phrases('New York Knicks ML', knicksMl)).toEqual(['New York Knicks ML']);
    expect(phrases('Knicks on the moneyline', knicksMl)).toEqual(['Knicks on the moneyline']);
    expect(phrases('Moneyline: Knicks', knicksMl)).toEqual(['Moneyline: Knicks']);
    expect(phrases('Knicks to win in Boston', knicksMl)).toEqual(['Knicks to win']);
    expect(phrases('Knicks -150 is cheap', knicksMl)).toEqual(['Knicks -150']);
    expect(phrases('Knicks over Celtics', knicksMl)).toEqual(['Knicks over Celtics']);
  });

  it('finds the team with its spread, signed or not, or a spread word', () => {
    expect(phrases('Lakers -3.5 vs Denver', lakersSpread)).toEqual(['Lakers -3.5']);
    expect(phrases('Lakers (-3.5)', lakersSpread)).toEqual(['Lakers (-3.5)']);
    expect(phrases('Lakers −3.5', lakersSpread)).toEqual(['Lakers −3.5']);
    expect(phrases('Lakers 3.5 is the number', lakersSpread)).toEqual(['Lakers 3.5']);
    expect(phrases('Lakers ATS', lakersSpread)).toEqual(['Lakers ATS']);
    expect(phrases('Lakers to cover at home', lakersSpread)).toEqual(['Lakers to cover']);
    expect(phrases('lakers +7', lakersSpread)).toEqual(['lakers +7']);
  });

  it('lets the matchup, the teams and talk without a side through', () => {
    expect(phrases('Knicks vs Celtics preview', knicksMl)).toEqual([]);
    expect(phrases('Big Sunday in Boston', knicksMl)).toEqual([]);
    expect(phrases('My best bet tonight: the moneyline value is real', knicksMl)).toEqual([]);
    expect(phrases('Knicks-Celtics: where the spread is wrong', knicksMl)).toEqual([]);
    expect(phrases('Lakers at Nuggets, 3-game trend', lakersSpread)).toEqual([]);
    expect(phrases('Lakers 3-1 in their last four', { ...lakersSpread, line: -3 })).toEqual([]);
  });

  it("does not flag the other team: it is not the leg's side", () => {
    expect(phrases('Celtics ML', knicksMl)).toEqual([]);
    expect(phrases('Nuggets +3.5', lakersSpread)).toEqual([]);
  });

  it('does not take a city both teams share for either of them', () => {
    const clippers: GiveawayLeg = {
      home: 'Los Angeles Lakers',
      away: 'Los Angeles Clippers',
      market: 'moneyline',
      side: 'Los Angeles Clippers',
      line: null,
    };
    expect(phrases('Los Angeles ML', clippers)).toEqual([]);
    expect(phrases('Clippers ML', clippers)).toEqual(['Clippers ML']);
  });

  it('does not read a word inside another as the team or market', () => {
    expect(phrases('Knicksmlx and HTML tips', knicksMl)).toEqual([]);
  });

  it("does not read a team name's digits as a line ('Bengals–49ers')", () => {
    const niners: GiveawayLeg = {
      home: 'San Francisco 49ers',
      away: 'Cincinnati Bengals',
      market: 'spread',
      side: 'Cincinnati Bengals',
      line: 4.5,
    };
    expect(phrases('Bengals–49ers: the number I trust', niners)).toEqual([]);
    expect(phrases('Bengals +4.5 at the 49ers', niners)).toEqual(['Bengals +4.5']);
  });
});

describe('giveawayPhrases: a total', () => {
  it('finds the side with the line, in words or letters', () => {
    expect(phrases('Over 131.5 in Lawrence', over)).toEqual(['Over 131.5']);
    expect(phrases('o131.5', over)).toEqual(['o131.5']);
    expect(phrases('Chiefs-Bills u48.5', under)).toEqual(['u48.5']);
    expect(phrases('U 48', wholeUnder)).toEqual(['U 48']);
    expect(phrases('under 48.0', wholeUnder)).toEqual(['under 48.0']);
  });

  it('finds the side backed or after the game, without the number', () => {
    expect(phrases('take the under 48.5', under)).toEqual(['take the under 48.5']);
    expect(phrases('Hammer the under tonight', under)).toEqual(['Hammer the under']);
    expect(phrases('Kansas-Duke Over', over)).toEqual(['Kansas-Duke Over']);
    expect(phrases('Chiefs under in the cold', under)).toEqual(['Chiefs under']);
    expect(phrases('Under the total in Arrowhead', under)).toEqual(['Under the total']);
  });

  it('merges a parlay title into its phrases, one per leg', () => {
    expect(phrases('Parlays: 2-leg parlay, Kansas-Duke Over 131.5 + Knicks ML', over, knicksMl)).toEqual([
      'Kansas-Duke Over 131.5',
      'Knicks ML',
    ]);
  });

  it('lets the total without a side, and ordinary words, through', () => {
    expect(phrases('Kansas-Duke O/U 131.5 breakdown', over)).toEqual([]);
    expect(phrases('Over/under 131.5: where the number sits', over)).toEqual([]);
    expect(phrases('Over or under 131.5? Watch', over)).toEqual([]);
    expect(phrases('Over the last five games Kansas is 4-1', over)).toEqual([]);
    expect(phrases('Explained in under two minutes', under)).toEqual([]);
    expect(phrases('Kansas over Duke in a rout', over)).toEqual([]);
    expect(phrases('The overtime numbers and the over-achievers', over)).toEqual([]);
    expect(phrases('Total 131.5 is too high', over)).toEqual([]);
  });

  it('does not flag the side the leg did not take', () => {
    expect(phrases('Under 131.5', over)).toEqual([]);
    expect(phrases('take the over', under)).toEqual([]);
  });

  it('does not read the line inside a longer number', () => {
    expect(phrases('Over 1131.5 or 131.55', over)).toEqual([]);
    expect(phrases('under 48.5', wholeUnder)).toEqual([]);
  });
});

describe('giveawayPhrases: a prop', () => {
  it("finds the prop's own words, and its over/under with the number or player", () => {
    expect(phrases('LeBron James over 25.5 points', prop)).toEqual(['LeBron James over 25.5 points']);
    expect(phrases('LeBron o25.5 tonight', prop)).toEqual(['o25.5']);
    expect(phrases('LeBron over tonight', prop)).toEqual(['LeBron over']);
  });

  it('lets the player alone through', () => {
    expect(phrases('LeBron James and the Lakers', prop)).toEqual([]);
  });
});

describe('pickGiveaway', () => {
  it('checks nothing without legs: a video without legs has nothing sealed', () => {
    expect(pickGiveaway({ title: 'Knicks ML' }, [])).toBeNull();
  });

  it('names the first field that gives the pick away, with its words', () => {
    expect(pickGiveaway({ title: 'Knicks ML', description: 'Over 131.5' }, [knicksMl, over])).toEqual({
      field: 'title',
      phrases: ['Knicks ML'],
      message:
        'The title gives the pick away: "Knicks ML". Describe the pick without its side, line or market.',
    });
    expect(pickGiveaway({ title: 'Big night', description: 'Take the Over 131.5' }, [over])?.message).toBe(
      'The description gives the pick away: "Take the Over 131.5". Describe the pick without its side, line or market.',
    );
    expect(
      pickGiveaway({ title: 'Knicks vs Celtics preview', description: 'Game notes' }, [knicksMl]),
    ).toBeNull();
  });

  it('quotes every phrase', () => {
    expect(giveawayMessage('title', ['a', 'b'])).toBe(
      'The title gives the pick away: "a", "b". Describe the pick without its side, line or market.',
    );
  });
});
