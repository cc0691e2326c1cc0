// The demo's verified picks: for each demo capper, about 40 picks with legs on games
// of the last 120 days, each with the final score that grades it, and a few open picks on games to come.
// Data only, and deterministic: a seeded random draw depends on the capper, never on the date, so every run
// plans the same picks (same titles, legs, scores) placed relative to the day it runs.
import { gradeScoredLeg, type LegResult } from '#common/pick-grading.js';
import type { Category } from '#common/constants.js';
import type { League, Market } from '#common/schemas/picks.js';
import { DEMO_CAPPERS, pick } from './demo-content.js';

export type DemoOutcome = { status: 'final'; homeScore: number; awayScore: number } | { status: 'postponed' };

/** One leg as the API takes it, with how its game ends. */
export interface DemoLeg {
  league: League;
  home: string;
  away: string;
  startsAt: string;
  market: Market;
  side: string;
  line: number | null;
  odds: number;
  units: number;
  outcome: DemoOutcome;
  /** A prop's grade, given by hand once the game is final; null for the markets graded from the score. */
  handResult: LegResult | null;
}

export interface DemoPick {
  capper: string;
  title: string;
  description: string;
  /** The winning selections' text (the video's emailInformation), sealed with the legs. */
  selections: string;
  category: Category;
  priceCents: number;
  views: number;
  parlay: boolean;
  postedAt: Date;
  legs: DemoLeg[];
  /** Planned to be graded at once (a past game); open picks are on games to come. */
  graded: boolean;
}

/** How long after its start a game is final, and its score entered (what the seed passes as `now`). */
export const FINAL_AFTER_MS = 3 * 3600_000;
/** A prop is graded by hand a little after the score. */
export const HAND_GRADE_AFTER_MS = 4 * 3600_000;
/** A postponement is announced before the start. */
export const POSTPONED_BEFORE_MS = 2 * 3600_000;
export const HAND_GRADE_REASON = 'Demo results: graded from the box score.';

type PlanLeague = 'NBA' | 'NFL' | 'NHL' | 'MLB' | 'Soccer' | 'College Basketball';
type PlannedResult = 'win' | 'loss' | 'push' | 'void';

interface Team {
  name: string;
  prop: string;
}

const TEAMS: Record<PlanLeague, Team[]> = {
  NBA: [
    { name: 'Celtics', prop: 'Jayson Tatum over 27.5 points' },
    { name: 'Knicks', prop: 'Jalen Brunson over 26.5 points' },
    { name: 'Lakers', prop: 'LeBron James over 7.5 assists' },
    { name: 'Nuggets', prop: 'Nikola Jokic over 12.5 rebounds' },
    { name: 'Suns', prop: 'Devin Booker over 25.5 points' },
    { name: 'Heat', prop: 'Bam Adebayo over 9.5 rebounds' },
    { name: 'Warriors', prop: 'Stephen Curry over 4.5 threes' },
    { name: 'Mavericks', prop: 'Klay Thompson over 2.5 threes' },
    { name: 'Bucks', prop: 'Giannis Antetokounmpo over 30.5 points' },
    { name: 'Thunder', prop: 'Shai Gilgeous-Alexander over 31.5 points' },
    { name: 'Timberwolves', prop: 'Anthony Edwards over 26.5 points' },
    { name: '76ers', prop: 'Tyrese Maxey over 3.5 threes' },
  ],
  NFL: [
    { name: 'Chiefs', prop: 'Patrick Mahomes over 262.5 passing yards' },
    { name: 'Bills', prop: 'Josh Allen over 1.5 touchdown passes' },
    { name: 'Eagles', prop: 'Saquon Barkley over 89.5 rushing yards' },
    { name: 'Cowboys', prop: 'CeeDee Lamb over 76.5 receiving yards' },
    { name: '49ers', prop: 'Christian McCaffrey anytime touchdown' },
    { name: 'Packers', prop: 'Jordan Love over 239.5 passing yards' },
    { name: 'Ravens', prop: 'Lamar Jackson over 54.5 rushing yards' },
    { name: 'Bengals', prop: "Ja'Marr Chase over 84.5 receiving yards" },
    { name: 'Lions', prop: 'Amon-Ra St. Brown over 6.5 receptions' },
    { name: 'Dolphins', prop: 'Tyreek Hill over 72.5 receiving yards' },
  ],
  NHL: [
    { name: 'Rangers', prop: 'Artemi Panarin over 0.5 points' },
    { name: 'Bruins', prop: 'David Pastrnak over 3.5 shots on goal' },
    { name: 'Oilers', prop: 'Connor McDavid over 1.5 points' },
    { name: 'Avalanche', prop: 'Nathan MacKinnon over 4.5 shots on goal' },
    { name: 'Maple Leafs', prop: 'Auston Matthews anytime goal' },
    { name: 'Panthers', prop: 'Matthew Tkachuk over 0.5 assists' },
    { name: 'Stars', prop: 'Jason Robertson over 0.5 points' },
    { name: 'Golden Knights', prop: 'Jack Eichel over 2.5 shots on goal' },
  ],
  MLB: [
    { name: 'Yankees', prop: 'Aaron Judge to hit a home run' },
    { name: 'Red Sox', prop: 'Jarren Duran over 1.5 total bases' },
    { name: 'Dodgers', prop: 'Shohei Ohtani over 1.5 total bases' },
    { name: 'Padres', prop: 'Fernando Tatis Jr. over 0.5 hits' },
    { name: 'Braves', prop: 'Ronald Acuna Jr. over 0.5 stolen bases' },
    { name: 'Astros', prop: 'Yordan Alvarez over 1.5 total bases' },
    { name: 'Phillies', prop: 'Zack Wheeler over 6.5 strikeouts' },
    { name: 'Mets', prop: 'Francisco Lindor over 0.5 runs' },
  ],
  Soccer: [
    { name: 'Arsenal', prop: 'Bukayo Saka over 1.5 shots on target' },
    { name: 'Chelsea', prop: 'Cole Palmer anytime scorer' },
    { name: 'Liverpool', prop: 'Mohamed Salah anytime scorer' },
    { name: 'Manchester City', prop: 'Erling Haaland anytime scorer' },
    { name: 'Real Madrid', prop: 'Kylian Mbappe anytime scorer' },
    { name: 'Barcelona', prop: 'Robert Lewandowski over 2.5 shots' },
    { name: 'Bayern Munich', prop: 'Harry Kane anytime scorer' },
    { name: 'Inter', prop: 'Lautaro Martinez anytime scorer' },
  ],
  'College Basketball': [
    { name: 'Duke', prop: 'Duke over 9.5 made threes' },
    { name: 'North Carolina', prop: 'North Carolina over 38.5 rebounds' },
    { name: 'Kansas', prop: 'Kansas over 16.5 assists' },
    { name: 'Kentucky', prop: 'Kentucky over 8.5 made threes' },
    { name: 'Houston', prop: 'Houston over 8.5 steals' },
    { name: 'Gonzaga', prop: 'Gonzaga over 42.5 first-half points' },
  ],
};

/** Kick-off times in UTC (evening games in the US fall after midnight UTC). */
const START_TIMES: Record<PlanLeague, string[]> = {
  NBA: ['00:00', '00:30', '01:00', '02:30'],
  NFL: ['18:00', '21:25', '01:20'],
  NHL: ['00:00', '00:30', '02:00'],
  MLB: ['17:35', '23:05', '02:10'],
  Soccer: ['12:30', '15:00', '17:30', '20:00'],
  'College Basketball': ['17:00', '00:00', '02:00'],
};

/** Final scores as they come in each sport. */
const SCORES: Record<PlanLeague, (r: () => number) => number> = {
  NBA: (r) => 96 + Math.floor(r() * 36),
  'College Basketball': (r) => 58 + Math.floor(r() * 32),
  NFL: (r) =>
    pick([3, 7, 10, 13, 14, 16, 17, 20, 21, 23, 24, 26, 27, 28, 30, 31, 34, 38], Math.floor(r() * 18)),
  NHL: (r) => pick([0, 1, 1, 2, 2, 3, 3, 3, 4, 4, 5, 6], Math.floor(r() * 12)),
  MLB: (r) => pick([0, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 11], Math.floor(r() * 15)),
  Soccer: (r) => pick([0, 0, 1, 1, 1, 2, 2, 2, 3, 4], Math.floor(r() * 10)),
};

/** Lines offered: half points, and whole ones where a push can happen. */
const SPREADS: Record<PlanLeague, { half: number[]; whole: number[] }> = {
  NBA: { half: [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 11.5], whole: [2, 4, 5, 6, 7] },
  'College Basketball': { half: [2.5, 3.5, 5.5, 6.5, 8.5, 10.5], whole: [3, 4, 6] },
  NFL: { half: [1.5, 2.5, 3.5, 6.5, 7.5, 9.5], whole: [3, 7, 4, 6] },
  NHL: { half: [1.5], whole: [] },
  MLB: { half: [1.5], whole: [] },
  Soccer: { half: [0.5, 1.5], whole: [1] },
};
const TOTALS: Record<PlanLeague, { half: number[]; whole: number[] }> = {
  NBA: { half: [211.5, 215.5, 219.5, 222.5, 225.5, 228.5, 231.5, 234.5], whole: [218, 224, 229] },
  'College Basketball': { half: [131.5, 138.5, 142.5, 147.5, 151.5], whole: [140, 145] },
  NFL: { half: [38.5, 41.5, 43.5, 44.5, 47.5, 49.5, 51.5], whole: [41, 44, 47] },
  NHL: { half: [5.5, 6.5], whole: [6] },
  MLB: { half: [7.5, 8.5, 9.5], whole: [8, 9] },
  Soccer: { half: [1.5, 2.5, 3.5], whole: [2, 3] },
};

interface Style {
  leagues: PlanLeague[];
  /** Markets of straight picks, drawn in turn (repeat one to weigh it). */
  markets: Market[];
  /** The graded picks' results, straight and parlays; shuffled over the 120 days. */
  straight: Record<PlannedResult, number>;
  parlays: Record<'win' | 'loss', number>;
  /** One parlay win has a leg on a postponed game (the leg drops out). */
  parlayWithPostponedLeg: boolean;
  units: number[];
  /** Totals on the under, out of 1. */
  underShare: number;
  open: number;
}

// Four records that read differently on the leaderboard: a clear winner, a losing parlay player, one near
// even, and a modest winner on props and soccer unders.
const STYLES: Record<string, Style> = {
  sharpshooter: {
    leagues: ['NBA', 'NBA', 'NBA', 'College Basketball'],
    markets: ['spread', 'spread', 'total', 'moneyline', 'spread', 'total', 'prop'],
    straight: { win: 25, loss: 13, push: 2, void: 0 },
    parlays: { win: 1, loss: 1 },
    parlayWithPostponedLeg: false,
    units: [1, 1.5, 2, 2, 3],
    underShare: 0.5,
    open: 3,
  },
  parlayqueen: {
    leagues: ['NBA', 'NFL', 'NHL', 'MLB'],
    markets: ['moneyline', 'spread', 'total'],
    straight: { win: 7, loss: 9, push: 1, void: 0 },
    parlays: { win: 3, loss: 20 },
    parlayWithPostponedLeg: true,
    units: [0.5, 1, 1, 1.5],
    underShare: 0.3,
    open: 4,
  },
  lockcity: {
    leagues: ['NFL', 'NFL', 'NFL', 'NHL'],
    markets: ['spread', 'total', 'spread', 'moneyline', 'total'],
    straight: { win: 20, loss: 19, push: 2, void: 0 },
    parlays: { win: 0, loss: 0 },
    parlayWithPostponedLeg: false,
    units: [1, 1, 1.5, 2],
    underShare: 0.5,
    open: 2,
  },
  edgehunter: {
    leagues: ['Soccer', 'Soccer', 'NBA', 'MLB', 'NFL'],
    markets: ['prop', 'total', 'prop', 'total', 'spread'],
    straight: { win: 22, loss: 17, push: 1, void: 1 },
    parlays: { win: 0, loss: 0 },
    parlayWithPostponedLeg: false,
    units: [0.5, 1, 1, 2],
    underShare: 0.85,
    open: 3,
  },
};

const DAY_MS = 86_400_000;
const HISTORY_DAYS = 120;

/** mulberry32: a small seeded generator, the same numbers on every machine. */
function seededRandom(seed: string): () => number {
  let state = 2166136261;
  for (const char of seed) state = Math.imul(state ^ char.charCodeAt(0), 16777619);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const signed = (value: number) => (value > 0 ? `+${value}` : String(value));

function legLabel(leg: Pick<DemoLeg, 'market' | 'side' | 'line'>): string {
  if (leg.market === 'moneyline') return `${leg.side} ML`;
  if (leg.market === 'spread') return `${leg.side} ${signed(leg.line!)}`;
  if (leg.market === 'total') return `${leg.side === 'over' ? 'Over' : 'Under'} ${leg.line}`;
  return leg.side;
}

const PHRASES = [
  'where the value is',
  'the number I trust',
  'my strongest lean',
  'the angle the market missed',
  'how I am playing it',
  'the edge before it moves',
];
const PROP_PHRASES = ['the player prop I trust', 'one player play I love', 'the prop the books missed'];
const LEG_COUNT: Record<number, string> = { 2: 'Two', 3: 'Three', 4: 'Four' };

const DESCRIPTIONS = [
  'Line movement, injuries and where we see value, explained in under two minutes.',
  'Where the market is wrong tonight, the matchup edge and how much to play.',
  'Sharp money, rest and travel: the full breakdown before the number moves.',
  'Pace, form and the price we would still bet, in two minutes.',
];

/** Plans one capper's picks (see the top of the file); `now` only places them in time. */
function planCapper(username: string, style: Style, now: Date, taken: Set<string>): DemoPick[] {
  const r = seededRandom(`pickreel-demo:${username}`);
  const draw = <T>(items: readonly T[]) => items[Math.floor(r() * items.length)]!;
  const titles = new Set<string>();
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;

  // The graded picks in a shuffled order of results, oldest first.
  const kinds: { parlay: boolean; result: PlannedResult }[] = [];
  for (const [result, n] of Object.entries(style.straight) as [PlannedResult, number][])
    for (let i = 0; i < n; i++) kinds.push({ parlay: false, result });
  for (const [result, n] of Object.entries(style.parlays) as ['win' | 'loss', number][])
    for (let i = 0; i < n; i++) kinds.push({ parlay: true, result });
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  const open = Array.from({ length: style.open }, (_, i) => ({
    parlay: style.parlays.win + style.parlays.loss > 0 && i % 2 === 0,
    result: (r() < 0.5 ? 'win' : 'loss') as PlannedResult,
  }));

  let postponedParlayLeg = style.parlayWithPostponedLeg;
  const picks: DemoPick[] = [];
  for (const [index, kind] of [...kinds, ...open].entries()) {
    const graded = index < kinds.length;
    // Graded picks spread from 119 days ago to 2 days ago; open ones on the next days.
    const day = graded
      ? -(HISTORY_DAYS - 1) + Math.round((index * (HISTORY_DAYS - 3)) / Math.max(1, kinds.length - 1))
      : 1 + (index - kinds.length);
    const legResults: PlannedResult[] = [];
    if (!kind.parlay) legResults.push(kind.result);
    else {
      const n = 2 + Math.floor(r() * 2);
      for (let i = 0; i < n; i++)
        legResults.push(kind.result === 'win' ? 'win' : r() < 0.45 ? 'win' : 'loss');
      if (kind.result === 'loss' && !legResults.includes('loss')) legResults[n - 1] = 'loss';
      if (kind.result === 'win' && graded && postponedParlayLeg) {
        legResults.push('void');
        postponedParlayLeg = false;
      }
    }
    const units = draw(style.units);
    for (let attempt = 0; ; attempt++) {
      if (attempt > 200) throw new Error(`no free game for ${username}'s demo pick ${index}`);
      const legs = legResults.map((result) => planLeg(r, draw, style, result, units, day, today));
      const games = legs.map((leg) => `${leg.league}|${day}|${leg.home}|${leg.away}`);
      const teams = legs.flatMap((leg) => [
        `${leg.league}|${day}|${leg.home}`,
        `${leg.league}|${day}|${leg.away}`,
      ]);
      // Titles sell without naming a side, a line or a market with its side (they would give the pick away).
      const first = legs[0]!;
      const leagues = new Set(legs.map((leg) => leg.league));
      // Never the date: a later run plans the same titles (a pick is known by its capper and title).
      const title = kind.parlay
        ? `${LEG_COUNT[legs.length] ?? legs.length}-leg card: ${first.away}–${first.home} and ${legs.length - 1} more`
        : `${first.away}–${first.home}: ${draw(first.market === 'prop' ? PROP_PHRASES : PHRASES)}`;
      // A team plays once a day, a title is the capper's once, and the sides of a parlay are on different games.
      if (
        title.length > 120 ||
        titles.has(title) ||
        new Set(games).size < games.length ||
        new Set(teams).size < teams.length ||
        teams.some((team) => taken.has(team))
      )
        continue;
      titles.add(title);
      for (const team of teams) taken.add(team);
      const earliest = Math.min(...legs.map((leg) => Date.parse(leg.startsAt)));
      const postedAt = graded
        ? new Date(earliest - (2 + Math.floor(r() * 20)) * 3600_000 - Math.floor(r() * 60) * 60_000)
        : new Date(Math.min(now.getTime(), earliest) - (1 + Math.floor(r() * 6)) * 3600_000);
      const matchups = legs.map((leg) => `${leg.home} vs ${leg.away}`).join(', ');
      picks.push({
        capper: username,
        title,
        description: `${matchups}. ${draw(DESCRIPTIONS)}`,
        selections:
          legs.map((leg) => `${legLabel(leg)} (${signed(leg.odds)})`).join('; ') +
          `${kind.parlay ? ' parlay' : ''}, ${units} ${units === 1 ? 'unit' : 'units'}`,
        // The category follows the legs: their league, or Parlays across leagues.
        category: leagues.size > 1 ? 'Parlays' : first.league,
        priceCents: draw([500, 999, 1400, 1999, 2500]),
        views: 20 + Math.floor(r() * 900),
        parlay: kind.parlay,
        postedAt,
        legs,
        graded,
      });
      break;
    }
  }
  return picks;
}

function planLeg(
  r: () => number,
  draw: <T>(items: readonly T[]) => T,
  style: Style,
  result: PlannedResult,
  units: number,
  day: number,
  today: number,
): DemoLeg {
  const league = draw(style.leagues);
  const teams = TEAMS[league];
  const home = draw(teams);
  let away = draw(teams);
  while (away === home) away = draw(teams);
  const [hours, minutes] = draw(START_TIMES[league]).split(':').map(Number) as [number, number];
  const startsAt = new Date(today + day * DAY_MS + hours * 3600_000 + minutes * 60_000)
    .toISOString()
    .replace('.000Z', 'Z');

  let market = draw(style.markets);
  // Soccer's moneyline is three-way (graded as 'other'); a push needs a whole line on a spread or total.
  if (league === 'Soccer' && market === 'moneyline') market = 'spread';
  if (result === 'push' && (market === 'moneyline' || market === 'prop' || !SPREADS[league].whole.length))
    market = 'total';
  const team = r() < 0.5 ? home : away;
  let side: string;
  let line: number | null = null;
  let odds: number;
  if (market === 'moneyline') {
    side = team.name;
    odds = draw([-220, -185, -160, -145, -130, 110, 120, 135, 150, 175]);
  } else if (market === 'spread') {
    side = team.name;
    const size = result === 'push' ? draw(SPREADS[league].whole) : draw(SPREADS[league].half);
    line = r() < 0.5 ? -size : size;
    // A run line or puck line is priced away from even money.
    odds =
      size === 1.5 && (league === 'NHL' || league === 'MLB')
        ? line < 0
          ? 150
          : -175
        : draw([-110, -110, -105, -115]);
  } else if (market === 'total') {
    side = r() < style.underShare ? 'under' : 'over';
    line = result === 'push' ? draw(TOTALS[league].whole) : draw(TOTALS[league].half);
    odds = draw([-110, -110, -105, -115, -120]);
  } else {
    side = team.prop;
    odds = draw([-115, -120, 105, 130, -110, 140]);
  }
  const leg = { league, home: home.name, away: away.name, startsAt, market, side, line, odds, units };
  if (result === 'void') return { ...leg, outcome: { status: 'postponed' }, handResult: null };
  const outcome = finalScore(r, leg, market === 'prop' ? null : result);
  return { ...leg, outcome, handResult: market === 'prop' ? result : null };
}

/** A final score that gives the leg its planned result (any score for a prop); a draw only in soccer. */
function finalScore(
  r: () => number,
  leg: { league: PlanLeague; home: string; away: string; market: Market; side: string; line: number | null },
  result: LegResult | null,
): DemoOutcome {
  const score = SCORES[leg.league];
  for (let attempt = 0; attempt < 20_000; attempt++) {
    const homeScore = score(r);
    const awayScore = score(r);
    if (homeScore === awayScore && leg.league !== 'Soccer') continue;
    if (
      result === null ||
      gradeScoredLeg(
        { ...leg, market: leg.market as 'moneyline' | 'spread' | 'total' },
        { home: homeScore, away: awayScore },
      ) === result
    )
      return { status: 'final', homeScore, awayScore };
  }
  throw new Error(`no ${leg.league} score gives ${leg.side} ${leg.line} a ${result}`);
}

/** Every demo capper's picks, planned for a run at `now`. */
export function demoPickPlan(now: Date): DemoPick[] {
  const taken = new Set<string>();
  return DEMO_CAPPERS.flatMap((capper) => planCapper(capper.username, STYLES[capper.username]!, now, taken));
}
