// A season of sports as the pick-log fill plays it: the cappers, each day's games (market games of the four
// leagues the market follows by default, with their books' opening and closing prices and final scores, and
// self-reported games of leagues it does not follow), deterministic from a seed. Pure: no I/O, no clock.
import { createHash } from 'node:crypto';

export const PROVIDER = 'the-odds-api';
const DAY_MS = 24 * 3600_000;
const HOUR_MS = 3600_000;

/** A small deterministic generator (mulberry32): the same season in every run. */
export function randomOf(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random = {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
    normal: () => {
      const u = Math.max(next(), 1e-12);
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
    },
    /** A key drawn from weights: { key: weight }. */
    weighted: (weights) => {
      const total = Object.values(weights).reduce((a, b) => a + b, 0);
      let r = next() * total;
      for (const [key, weight] of Object.entries(weights)) if ((r -= weight) < 0) return key;
      return Object.keys(weights).at(-1);
    },
  };
  return random;
}

export const hex = (text, length = 64) => createHash('sha256').update(text).digest('hex').slice(0, length);

const TEAMS = {
  NBA: 'Atlanta Hawks|Boston Celtics|Brooklyn Nets|Charlotte Hornets|Chicago Bulls|Cleveland Cavaliers|Dallas Mavericks|Denver Nuggets|Detroit Pistons|Golden State Warriors|Houston Rockets|Indiana Pacers|Los Angeles Clippers|Los Angeles Lakers|Memphis Grizzlies|Miami Heat|Milwaukee Bucks|Minnesota Timberwolves|New Orleans Pelicans|New York Knicks|Oklahoma City Thunder|Orlando Magic|Philadelphia 76ers|Phoenix Suns|Portland Trail Blazers|Sacramento Kings|San Antonio Spurs|Toronto Raptors|Utah Jazz|Washington Wizards',
  NHL: 'Anaheim Ducks|Boston Bruins|Buffalo Sabres|Calgary Flames|Carolina Hurricanes|Chicago Blackhawks|Colorado Avalanche|Columbus Blue Jackets|Dallas Stars|Detroit Red Wings|Edmonton Oilers|Florida Panthers|Los Angeles Kings|Minnesota Wild|Montréal Canadiens|Nashville Predators|New Jersey Devils|New York Islanders|New York Rangers|Ottawa Senators|Philadelphia Flyers|Pittsburgh Penguins|San Jose Sharks|Seattle Kraken|St Louis Blues|Tampa Bay Lightning|Toronto Maple Leafs|Utah Mammoth|Vancouver Canucks|Vegas Golden Knights|Washington Capitals|Winnipeg Jets',
  MLB: 'Arizona Diamondbacks|Atlanta Braves|Baltimore Orioles|Boston Red Sox|Chicago Cubs|Chicago White Sox|Cincinnati Reds|Cleveland Guardians|Colorado Rockies|Detroit Tigers|Houston Astros|Kansas City Royals|Los Angeles Angels|Los Angeles Dodgers|Miami Marlins|Milwaukee Brewers|Minnesota Twins|New York Mets|New York Yankees|Athletics|Philadelphia Phillies|Pittsburgh Pirates|San Diego Padres|San Francisco Giants|Seattle Mariners|St. Louis Cardinals|Tampa Bay Rays|Texas Rangers|Toronto Blue Jays|Washington Nationals',
  NFL: 'Arizona Cardinals|Atlanta Falcons|Baltimore Ravens|Buffalo Bills|Carolina Panthers|Chicago Bears|Cincinnati Bengals|Cleveland Browns|Dallas Cowboys|Denver Broncos|Detroit Lions|Green Bay Packers|Houston Texans|Indianapolis Colts|Jacksonville Jaguars|Kansas City Chiefs|Las Vegas Raiders|Los Angeles Chargers|Los Angeles Rams|Miami Dolphins|Minnesota Vikings|New England Patriots|New Orleans Saints|New York Giants|New York Jets|Philadelphia Eagles|Pittsburgh Steelers|San Francisco 49ers|Seattle Seahawks|Tampa Bay Buccaneers|Tennessee Titans|Washington Commanders',
  Soccer:
    'Atlanta United|Austin FC|Charlotte FC|Chicago Fire|Columbus Crew|FC Cincinnati|Inter Miami|LA Galaxy|LAFC|Nashville SC|New York Red Bulls|Orlando City|Philadelphia Union|Portland Timbers|Seattle Sounders|Sporting Kansas City',
  'College Basketball':
    'Duke|Kansas|Kentucky|North Carolina|Gonzaga|Villanova|UCLA|Michigan State|Arizona|Baylor|Houston|Purdue|UConn|Texas|Auburn|Tennessee|Alabama|Marquette|Creighton|Iowa State',
};
const teamsOf = (league) => TEAMS[league].split('|');

/** The four leagues the market follows by default (common/market.ts DEFAULT_MARKET_LEAGUES). */
export const MARKET_LEAGUES = ['NBA', 'NHL', 'MLB', 'NFL'];

/** [typical total, spread's points per unit of win probability, score spread] per league. */
const SCORING = {
  NBA: { total: 226, perProb: 30, sd: 12, totalSd: 14 },
  NHL: { total: 6, perProb: 3, sd: 2.2, totalSd: 2 },
  MLB: { total: 8.5, perProb: 4, sd: 3.5, totalSd: 3 },
  NFL: { total: 44, perProb: 28, sd: 13, totalSd: 10 },
  Soccer: { total: 2.8, perProb: 2, sd: 1.5, totalSd: 1.3 },
  'College Basketball': { total: 142, perProb: 28, sd: 11, totalSd: 12 },
};

/** Games of a league on a date (month 0–11, weekday 0 = Sunday), roughly as the real calendars run. */
function gamesOn(league, month, weekday) {
  switch (league) {
    case 'NBA':
      return month >= 9 || month <= 5 ? (month === 5 ? 1 : 7) : 0;
    case 'NHL':
      return month >= 9 || month <= 5 ? (month === 5 ? 1 : 6) : 0;
    case 'MLB':
      return month >= 2 && month <= 9 ? (month === 9 ? 2 : 9) : 0;
    case 'NFL':
      if (!(month >= 8 || month <= 1)) return 0;
      return weekday === 0 ? 13 : weekday === 1 || weekday === 4 ? 1 : 0;
    case 'Soccer':
      return month >= 1 && month <= 11 ? (weekday === 6 ? 6 : weekday === 3 ? 2 : 0) : 0;
    case 'College Basketball':
      return month >= 10 || month <= 2 ? (weekday === 6 ? 10 : 4) : 0;
  }
  return 0;
}

/**
 * The games starting on `day` (a UTC midnight): every league's, in the evening (UTC), the NFL's on Sunday
 * afternoon. Market games carry the provider's id; every game its prices' fair probability and lines.
 */
export function gamesOfDay(day) {
  const date = new Date(day);
  const random = randomOf(Math.floor(day / DAY_MS) * 7919);
  const games = [];
  for (const league of [...MARKET_LEAGUES, 'Soccer', 'College Basketball']) {
    const count = gamesOn(league, date.getUTCMonth(), date.getUTCDay());
    const teams = [...teamsOf(league)];
    for (let i = teams.length - 1; i > 0; i--) {
      const j = random.int(i + 1);
      [teams[i], teams[j]] = [teams[j], teams[i]];
    }
    for (let g = 0; g < Math.min(count, teams.length >> 1); g++) {
      const slots =
        league === 'NFL' && date.getUTCDay() === 0
          ? [17, 17, 17, 17, 17, 17, 17, 20.1, 20.1, 20.4, 20.4, 20.4, 24.3]
          : league === 'MLB'
            ? [17.1, 18.1, 23.1, 23.1, 23.7, 24.1, 24.7, 25.2, 26.1]
            : league === 'Soccer'
              ? [19.5, 19.5, 23.5, 23.5, 26.5, 26.5]
              : [23.5, 23.5, 24, 24.5, 25, 25.5, 26, 27, 27, 27];
      const hour = slots[g % slots.length];
      const market = MARKET_LEAGUES.includes(league);
      const key = `${league}|${day}|${g}`;
      const homeProb = Math.min(0.82, Math.max(0.18, 0.55 + random.normal() * 0.14));
      const scoring = SCORING[league];
      const half = (x) => Math.round(x * 2) / 2;
      games.push({
        key,
        league,
        home: teams[2 * g],
        away: teams[2 * g + 1],
        startsAt: new Date(day + Math.round(hour * 60) * 60_000),
        market,
        gameId: market ? hex(`game ${key}`, 32) : null,
        // Opening and closing: the fair probability and the lines move a little before the start.
        open: {
          prob: homeProb,
          spread: half(-(homeProb - 0.5) * scoring.perProb) || -0.5,
          total: Math.floor(scoring.total + random.normal() * scoring.totalSd * 0.3) + 0.5,
        },
        drift: {
          prob: random.normal() * 0.025,
          spread: random.pick([0, 0, 0, 0.5, -0.5, 1]),
          total: random.pick([0, 0, 0, 0.5, -0.5]),
        },
        outcomeSeed: random.int(2 ** 31),
      });
    }
  }
  return games.sort((a, b) => a.startsAt - b.startsAt || (a.key < b.key ? -1 : 1));
}

export function closingOf(game) {
  const { open, drift } = game;
  return {
    prob: Math.min(0.85, Math.max(0.15, open.prob + drift.prob)),
    spread: open.spread + drift.spread || -0.5,
    total: open.total + drift.total,
  };
}

const BOOKS = [
  ['draftkings', 'DraftKings'],
  ['fanduel', 'FanDuel'],
  ['betmgm', 'BetMGM'],
  ['caesars', 'Caesars'],
  ['espnbet', 'ESPN BET'],
  ['betrivers', 'BetRivers'],
  ['bovada', 'Bovada'],
];

/** Probability to American odds (whole, |odds| >= 100). */
export function americanOf(probability) {
  const decimal = 1 / probability;
  return decimal >= 2
    ? Math.max(100, Math.round((decimal - 1) * 100))
    : -Math.max(100, Math.round(100 / (decimal - 1)));
}

/**
 * Each book's prices for a game (The Odds API's shape, before the market's snapshotOf): moneyline, the
 * main spread and total, and for some books an alternative line; every book's own margin and opinion.
 */
export function booksOf(game, line, seed, takenAt) {
  const random = randomOf(seed);
  const books = [];
  const count = 4 + random.int(4);
  const offset = random.int(BOOKS.length);
  for (let b = 0; b < count; b++) {
    const [book, title] = BOOKS[(offset + b) % BOOKS.length];
    const margin = 0.035 + random.next() * 0.025;
    const lean = random.normal() * 0.012;
    const pair = (p) => [americanOf((p + lean) * (1 + margin)), americanOf((1 - p - lean) * (1 + margin))];
    const prices = [];
    const [mlHome, mlAway] = pair(line.prob);
    prices.push({ market: 'moneyline', side: game.home, point: null, price: mlHome });
    prices.push({ market: 'moneyline', side: game.away, point: null, price: mlAway });
    const spreads = [line.spread, ...(random.chance(0.35) ? [line.spread + random.pick([-1, 1])] : [])];
    for (const point of spreads) {
      if (point === 0) continue;
      const [home, away] = pair(0.5 + (point - line.spread) * 0.03);
      prices.push({ market: 'spread', side: game.home, point, price: home });
      prices.push({ market: 'spread', side: game.away, point: -point, price: away });
    }
    const totals = [line.total, ...(random.chance(0.3) ? [line.total + random.pick([-1, 1])] : [])];
    for (const point of totals) {
      const [over, under] = pair(0.5 + (line.total - point) * 0.04);
      prices.push({ market: 'total', side: 'over', point, price: over });
      prices.push({ market: 'total', side: 'under', point, price: under });
    }
    books.push({ book, title, updatedAt: new Date(takenAt - random.int(600) * 1000).toISOString(), prices });
  }
  return books;
}

/** The game's final score, drawn around its closing lines; one in a hundred is postponed or cancelled. */
export function outcomeOf(game) {
  const random = randomOf(game.outcomeSeed);
  const r = random.next();
  if (r < 0.008) return { status: 'postponed' };
  if (r < 0.01) return { status: 'cancelled' };
  const close = closingOf(game);
  const scoring = SCORING[game.league];
  const total = Math.max(1, close.total + random.normal() * scoring.totalSd);
  const margin = -close.spread + random.normal() * scoring.sd;
  let home = Math.max(0, Math.round((total + margin) / 2));
  let away = Math.max(0, Math.round((total - margin) / 2));
  // Only soccer ends level here: elsewhere a tie goes to overtime, the favourite likelier to win it.
  if (home === away && game.league !== 'Soccer') {
    if (random.chance(close.prob)) home += 1;
    else away += 1;
  }
  return { status: 'final', homeScore: home, awayScore: away };
}

const HANDLES =
  'Sharp|Vegas|Line|Chalk|Dog|Parlay|Unit|Edge|Steam|Fade|Cover|Hedge|Juice|Whale|Lock|Prop|Total|Spread|Money|Closing'.split(
    '|',
  );
const SUFFIXES =
  'King|Queen|Guru|Lab|Report|Wire|Desk|Club|Picks|Plays|Sports|Analytics|Insider|Hunter|Doctor|Coach|Syndicate|Room|Sheet|Index'.split(
    '|',
  );

/** The season's cappers: a name, how much they post, their leagues, and whether they like parlays. */
export function cappersOf(count) {
  const random = randomOf(424242);
  return Array.from({ length: count }, (_, i) => {
    const name = `${HANDLES[i % HANDLES.length]}${SUFFIXES[Math.floor(i / HANDLES.length) % SUFFIXES.length]}${
      i >= HANDLES.length * SUFFIXES.length ? `_${Math.floor(i / (HANDLES.length * SUFFIXES.length))}` : ''
    }`;
    const favourite = random.pick(MARKET_LEAGUES);
    return {
      username: i % 7 === 3 ? name.toLowerCase() : name,
      activity: Math.exp(random.normal() * 0.6),
      leagues: { NBA: 1, NHL: 0.6, MLB: 0.8, NFL: 1.2, [favourite]: 4 },
      parlays: random.chance(0.2) ? 0.25 : 0.04,
      unit: random.pick([0.5, 1, 1, 1, 2]),
    };
  });
}

export const times = { DAY_MS, HOUR_MS };
