// A local market speaking The Odds API v4 (docs/decisions/025), for the API tests (in-process), the browser
// tests (over HTTP) and the demo. It holds games, prices and scores and serves them as the provider would;
// it computes nothing the app should (no grading, no best price, no closing line).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { ODDS_API_SPORT_KEYS } from '#common/market.js';
import { LEAGUES, type League } from '#common/schemas/picks.js';
import type { MarketGame } from './provider.js';

/** The header carrying the stand-in's key on its control endpoints (`POST {url}/__stand-in/<control>`). */
export const STAND_IN_KEY_HEADER = 'x-stand-in-key';
const CONTROL_PREFIX = '/__stand-in';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Demo prices move in steps of this; a fetch a minute later may see a new price. */
const PRICE_BUCKET_MS = 30 * SECOND;
const MAX_CONTROL_BODY_BYTES = 1024 * 1024;

export type StandInEndpoint = 'odds' | 'scores' | 'events' | 'sports';

export interface DemoOptions {
  /** The schedule is derived from this and the clock only: the same anchor serves the same games and ids. */
  anchor: Date;
  leagues: readonly League[];
  /** A slot of games every this many minutes per league. Default 10. */
  slotMinutes?: number;
  /** Games per slot, each with other teams. Default 3. */
  gamesPerSlot?: number;
  /** From the start to the final score. Default 6. */
  durationMinutes?: number;
  /** Games listed up to this far ahead. Default 48. */
  horizonHours?: number;
  /** And back. Default 72 (the provider's scores go back 3 days). */
  historyHours?: number;
  now?: () => Date;
}

export interface MarketStandInOptions {
  /** Default: random hex. */
  apiKey?: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** The starting x-requests-remaining. Default 1,000,000. */
  credits?: number;
  demo?: DemoOptions;
  /** The stand-in's clock; default the demo's, else the system's. */
  now?: () => Date;
}

export interface StandInGameInput {
  /** Default: 32 hex characters, as the provider's ids. */
  id?: string;
  league: League;
  home: string;
  away: string;
  startsAt: string | Date;
}

export interface StandInSpread {
  /** The home team's point; the away team's is its negative. */
  home: number;
  homePrice: number;
  awayPrice: number;
}

export interface StandInTotal {
  point: number;
  over: number;
  under: number;
}

/** One book's prices, American odds. */
export interface StandInBook {
  book: string;
  title?: string;
  /** Default: now. */
  updatedAt?: string | Date;
  /** `draw` adds the three-way line's Draw outcome, as the provider lists soccer. */
  moneyline?: { home: number; away: number; draw?: number };
  spread?: StandInSpread | StandInSpread[];
  total?: StandInTotal | StandInTotal[];
}

export interface StandInScore {
  home: number;
  away: number;
  completed: boolean;
}

export interface StandInRequest {
  kind: StandInEndpoint;
  /** The sport key in the path; null for /v4/sports. */
  sport: string | null;
  path: string;
  /** The query's parameters, decoded. */
  query: Record<string, string>;
  /** The query string as sent, '?' included. */
  search: string;
}

export interface StandInRequests {
  counts: Record<StandInEndpoint, number>;
  last: StandInRequest | null;
}

export type StandInListedGame = MarketGame & { completed: boolean };

export interface MarketStandIn {
  /** The base URL to give the adapter ('http://127.0.0.1:PORT'). */
  url: string;
  apiKey: string;
  close(): Promise<void>;
  addGame(game: StandInGameInput): MarketGame;
  moveStart(id: string, startsAt: string | Date): MarketGame;
  removeGame(id: string): void;
  /** Replaces the game's books (a demo game's too). */
  setOdds(id: string, books: StandInBook[]): void;
  setScore(id: string, score: StandInScore): void;
  /** The game has no score (a demo game's own is hidden too). */
  clearScore(id: string): void;
  /** false: serve; a status: answer every provider request with it; true: drop the connection. */
  setDown(down: boolean | number): void;
  /** x-requests-remaining; at 0 the paid endpoints answer 401 OUT_OF_USAGE_CREDITS. */
  setCredits(credits: number): void;
  requests(): StandInRequests;
  /** Back to the start: no added game, no change to the demo, up, full credits, no request counted. */
  reset(): void;
  /** The games listed now (demo and added), completed ones included. */
  games(league?: League): StandInListedGame[];
}

/** A control call the stand-in refuses; `status` is its HTTP answer. */
export class StandInError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'StandInError';
  }
}

// --- The provider's shapes ---------------------------------------------------------------------------------

type MarketKey = 'h2h' | 'spreads' | 'totals';
const MARKET_KEYS: readonly MarketKey[] = ['h2h', 'spreads', 'totals'];
const REGIONS = new Set(['us', 'us2', 'uk', 'eu', 'au']);
/** Every book here is a US one. */
const BOOK_REGION = 'us';

interface Outcome {
  name: string;
  price: number;
  point?: number;
}

interface Book {
  key: string;
  title: string;
  updatedAt: number;
  markets: Partial<Record<MarketKey, Outcome[]>>;
}

interface Score {
  home: number;
  away: number;
  completed: boolean;
  updatedAt: number;
}

interface Sport {
  league: League;
  key: string;
  group: string;
  title: string;
  description: string;
}

const SPORT_DETAILS: Record<string, Omit<Sport, 'league' | 'key'>> = {
  americanfootball_nfl: { group: 'American Football', title: 'NFL', description: 'US Football' },
  americanfootball_ncaaf: { group: 'American Football', title: 'NCAAF', description: 'US College Football' },
  basketball_nba: { group: 'Basketball', title: 'NBA', description: 'US Basketball' },
  basketball_ncaab: { group: 'Basketball', title: 'NCAAB', description: 'US College Basketball' },
  baseball_mlb: { group: 'Baseball', title: 'MLB', description: 'Major League Baseball' },
  icehockey_nhl: { group: 'Ice Hockey', title: 'NHL', description: 'US Ice Hockey' },
  soccer_usa_mls: { group: 'Soccer', title: 'MLS', description: 'Major League Soccer' },
};

const SPORTS: readonly Sport[] = LEAGUES.flatMap((league) => {
  const key = ODDS_API_SPORT_KEYS[league];
  if (!key) return [];
  const details = SPORT_DETAILS[key] ?? { group: league, title: league, description: league };
  return [{ league, key, ...details }];
});
const SPORT_BY_KEY = new Map(SPORTS.map((sport) => [sport.key, sport]));
const SPORT_BY_LEAGUE = new Map(SPORTS.map((sport) => [sport.league, sport]));

function sportOf(league: League): Sport {
  const sport = SPORT_BY_LEAGUE.get(league);
  if (!sport) throw new StandInError(`No sport key for ${league}`, 400);
  return sport;
}

function isoSecond(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

function parseTime(value: string | Date, what: string): number {
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (!Number.isFinite(ms)) throw new StandInError(`${what} is not a time`, 400);
  return ms;
}

// --- The demo's market ---------------------------------------------------------------------------------------

export const DEMO_BOOKS: ReadonlyArray<{ key: string; title: string }> = [
  { key: 'draftkings', title: 'DraftKings' },
  { key: 'fanduel', title: 'FanDuel' },
  { key: 'betmgm', title: 'BetMGM' },
  { key: 'williamhill_us', title: 'Caesars' },
  { key: 'betrivers', title: 'BetRivers' },
  { key: 'bovada', title: 'Bovada' },
  { key: 'lowvig', title: 'LowVig.ag' },
  { key: 'betonlineag', title: 'BetOnline.ag' },
];

/** The provider's names of each league's teams. */
// prettier-ignore
export const DEMO_TEAMS: Partial<Record<League, readonly string[]>> = {
  NBA: [
    'Atlanta Hawks', 'Boston Celtics', 'Brooklyn Nets', 'Charlotte Hornets', 'Chicago Bulls',
    'Cleveland Cavaliers', 'Dallas Mavericks', 'Denver Nuggets', 'Detroit Pistons', 'Golden State Warriors',
    'Houston Rockets', 'Indiana Pacers', 'Los Angeles Clippers', 'Los Angeles Lakers', 'Memphis Grizzlies',
    'Miami Heat', 'Milwaukee Bucks', 'Minnesota Timberwolves', 'New Orleans Pelicans', 'New York Knicks',
    'Oklahoma City Thunder', 'Orlando Magic', 'Philadelphia 76ers', 'Phoenix Suns', 'Portland Trail Blazers',
    'Sacramento Kings', 'San Antonio Spurs', 'Toronto Raptors', 'Utah Jazz', 'Washington Wizards',
  ],
  NFL: [
    'Arizona Cardinals', 'Atlanta Falcons', 'Baltimore Ravens', 'Buffalo Bills', 'Carolina Panthers',
    'Chicago Bears', 'Cincinnati Bengals', 'Cleveland Browns', 'Dallas Cowboys', 'Denver Broncos',
    'Detroit Lions', 'Green Bay Packers', 'Houston Texans', 'Indianapolis Colts', 'Jacksonville Jaguars',
    'Kansas City Chiefs', 'Las Vegas Raiders', 'Los Angeles Chargers', 'Los Angeles Rams', 'Miami Dolphins',
    'Minnesota Vikings', 'New England Patriots', 'New Orleans Saints', 'New York Giants', 'New York Jets',
    'Philadelphia Eagles', 'Pittsburgh Steelers', 'San Francisco 49ers', 'Seattle Seahawks',
    'Tampa Bay Buccaneers', 'Tennessee Titans', 'Washington Commanders',
  ],
  MLB: [
    'Arizona Diamondbacks', 'Athletics', 'Atlanta Braves', 'Baltimore Orioles', 'Boston Red Sox',
    'Chicago Cubs', 'Chicago White Sox', 'Cincinnati Reds', 'Cleveland Guardians', 'Colorado Rockies',
    'Detroit Tigers', 'Houston Astros', 'Kansas City Royals', 'Los Angeles Angels', 'Los Angeles Dodgers',
    'Miami Marlins', 'Milwaukee Brewers', 'Minnesota Twins', 'New York Mets', 'New York Yankees',
    'Philadelphia Phillies', 'Pittsburgh Pirates', 'San Diego Padres', 'San Francisco Giants',
    'Seattle Mariners', 'St. Louis Cardinals', 'Tampa Bay Rays', 'Texas Rangers', 'Toronto Blue Jays',
    'Washington Nationals',
  ],
  NHL: [
    'Anaheim Ducks', 'Boston Bruins', 'Buffalo Sabres', 'Calgary Flames', 'Carolina Hurricanes',
    'Chicago Blackhawks', 'Colorado Avalanche', 'Columbus Blue Jackets', 'Dallas Stars', 'Detroit Red Wings',
    'Edmonton Oilers', 'Florida Panthers', 'Los Angeles Kings', 'Minnesota Wild', 'Montréal Canadiens',
    'Nashville Predators', 'New Jersey Devils', 'New York Islanders', 'New York Rangers', 'Ottawa Senators',
    'Philadelphia Flyers', 'Pittsburgh Penguins', 'San Jose Sharks', 'Seattle Kraken', 'St Louis Blues',
    'Tampa Bay Lightning', 'Toronto Maple Leafs', 'Utah Mammoth', 'Vancouver Canucks',
    'Vegas Golden Knights', 'Washington Capitals', 'Winnipeg Jets',
  ],
  'College Football': [
    'Alabama Crimson Tide', 'Clemson Tigers', 'Florida State Seminoles', 'Georgia Bulldogs', 'Iowa Hawkeyes',
    'LSU Tigers', 'Miami Hurricanes', 'Michigan Wolverines', 'Notre Dame Fighting Irish', 'Ohio State Buckeyes',
    'Oklahoma Sooners', 'Ole Miss Rebels', 'Oregon Ducks', 'Penn State Nittany Lions', 'Tennessee Volunteers',
    'Texas A&M Aggies', 'Texas Longhorns', 'USC Trojans', 'Utah Utes', 'Wisconsin Badgers',
  ],
  'College Basketball': [
    'Alabama Crimson Tide', 'Arizona Wildcats', 'Auburn Tigers', 'Baylor Bears', 'Creighton Bluejays',
    'Duke Blue Devils', 'Gonzaga Bulldogs', 'Houston Cougars', 'Illinois Fighting Illini', 'Iowa State Cyclones',
    'Kansas Jayhawks', 'Kentucky Wildcats', 'Marquette Golden Eagles', 'Michigan State Spartans',
    'North Carolina Tar Heels', 'Purdue Boilermakers', 'Tennessee Volunteers', 'UCLA Bruins', 'UConn Huskies',
    'Villanova Wildcats',
  ],
  Soccer: [
    'Atlanta United FC', 'Austin FC', 'CF Montréal', 'Charlotte FC', 'Chicago Fire', 'Colorado Rapids',
    'Columbus Crew SC', 'D.C. United', 'FC Cincinnati', 'FC Dallas', 'Houston Dynamo', 'Inter Miami CF',
    'LA Galaxy', 'Los Angeles FC', 'Minnesota United FC', 'Nashville SC', 'New England Revolution',
    'New York City FC', 'New York Red Bulls', 'Orlando City SC', 'Philadelphia Union', 'Portland Timbers',
    'Real Salt Lake', 'San Diego FC', 'San Jose Earthquakes', 'Seattle Sounders FC', 'Sporting Kansas City',
    'St. Louis City SC', 'Toronto FC', 'Vancouver Whitecaps FC',
  ],
};

/**
 * How a league's games are priced and end. A game's hidden strength is its expected home margin `mu`
 * (normal, spread `sigma`) and expected total `tau` (spread `totalSigma`); lines and scores follow from them.
 */
interface LeagueModel {
  sigma: number;
  homeEdge: number;
  strengthRange: number;
  totalBase: number;
  totalRange: number;
  totalSigma: number;
  /** How far a game's line wanders before the start, and how far a book sits from the others. */
  drift: number;
  bookJitter: number;
  totalDrift: number;
  totalJitter: number;
  /** Baseball's run line and hockey's puck line: always ±1.5, the price does the work. */
  fixedSpread: number | null;
  draws: boolean;
  /** A side's final score; `tieBreak` is what settles a tie (overtime, extra innings), null if ties stand. */
  scoreMin: number;
  scoreMax: number;
  tieBreak: number | null;
}

// prettier-ignore
const MODELS: Partial<Record<League, LeagueModel>> = {
  NBA: {
    sigma: 12, homeEdge: 2.5, strengthRange: 10, totalBase: 225, totalRange: 12, totalSigma: 18,
    drift: 1.5, bookJitter: 0.5, totalDrift: 2.5, totalJitter: 0.75,
    fixedSpread: null, draws: false, scoreMin: 90, scoreMax: 130, tieBreak: 5,
  },
  NFL: {
    sigma: 13, homeEdge: 1.5, strengthRange: 9, totalBase: 44, totalRange: 6, totalSigma: 10,
    drift: 1.5, bookJitter: 0.5, totalDrift: 1.5, totalJitter: 0.5,
    fixedSpread: null, draws: false, scoreMin: 0, scoreMax: 45, tieBreak: 3,
  },
  MLB: {
    sigma: 4.2, homeEdge: 0.2, strengthRange: 1.2, totalBase: 8.5, totalRange: 1.2, totalSigma: 3.2,
    drift: 0.3, bookJitter: 0.1, totalDrift: 0.5, totalJitter: 0.25,
    fixedSpread: 1.5, draws: false, scoreMin: 0, scoreMax: 12, tieBreak: 1,
  },
  NHL: {
    sigma: 2.4, homeEdge: 0.15, strengthRange: 0.8, totalBase: 6, totalRange: 0.5, totalSigma: 2.2,
    drift: 0.2, bookJitter: 0.06, totalDrift: 0.3, totalJitter: 0.2,
    fixedSpread: 1.5, draws: false, scoreMin: 0, scoreMax: 7, tieBreak: 1,
  },
  'College Football': {
    sigma: 15, homeEdge: 2.5, strengthRange: 17, totalBase: 54, totalRange: 9, totalSigma: 13,
    drift: 2, bookJitter: 0.5, totalDrift: 2, totalJitter: 0.75,
    fixedSpread: null, draws: false, scoreMin: 0, scoreMax: 56, tieBreak: 3,
  },
  'College Basketball': {
    sigma: 11, homeEdge: 3, strengthRange: 13, totalBase: 144, totalRange: 10, totalSigma: 15,
    drift: 1.5, bookJitter: 0.5, totalDrift: 2.5, totalJitter: 0.75,
    fixedSpread: null, draws: false, scoreMin: 50, scoreMax: 100, tieBreak: 5,
  },
  Soccer: {
    sigma: 1.6, homeEdge: 0.3, strengthRange: 0.7, totalBase: 2.9, totalRange: 0.4, totalSigma: 1.6,
    drift: 0.12, bookJitter: 0.05, totalDrift: 0.15, totalJitter: 0.1,
    fixedSpread: null, draws: true, scoreMin: 0, scoreMax: 5, tieBreak: null,
  },
};

/** 32-bit FNV-1a. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Two 32-bit numbers to one, well mixed (murmur3's finaliser). */
function hash2(a: number, b: number): number {
  let h = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** mulberry32: a small seeded PRNG in [0, 1). */
function prng(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * A random walk evaluated at any step without walking there: noise at scales of 1 to 256 steps, each
 * weighted as a walk's spread grows (square root of the scale), scaled to mostly within [-1, 1].
 */
const WALK_SCALES = [1, 2, 4, 8, 16, 32, 64, 128, 256].map((scale) => ({ scale, weight: Math.sqrt(scale) }));
const WALK_TOTAL = WALK_SCALES.reduce((sum, { weight }) => sum + weight, 0);

function walk(seed: number, step: number): number {
  let sum = 0;
  for (const [i, { scale, weight }] of WALK_SCALES.entries())
    sum += weight * ((hash2(hash2(seed, i), Math.floor(step / scale)) / 4294967296) * 2 - 1);
  return (sum / WALK_TOTAL) * 2.5;
}

/** The standard normal distribution function (Abramowitz & Stegun 7.1.26). */
function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
      t *
      Math.exp(-z * z);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** An implied probability (margin included) as American odds, in steps of 5 as books quote them. */
function american(probability: number): number {
  const p = Math.min(0.985, Math.max(0.015, probability));
  const raw = p >= 0.5 ? (-100 * p) / (1 - p) : (100 * (1 - p)) / p;
  let price = Math.round(raw / 5) * 5;
  if (price > -100 && price < 100) price = 100;
  // even money is written +100
  return price === -100 ? 100 : price;
}

function roundHalf(value: number): number {
  const rounded = Math.round(value * 2) / 2;
  return rounded === 0 ? 0 : rounded;
}

function negate(point: number): number {
  return point === 0 ? 0 : -point;
}

interface DemoGame {
  game: MarketGame;
  sport: Sport;
  seed: number;
  model: LeagueModel;
  /** Expected home margin and total. */
  mu: number;
  tau: number;
}

class DemoMarket {
  readonly #anchor: number;
  readonly #anchorIso: string;
  readonly #slotMs: number;
  readonly #perSlot: number;
  readonly #durationMs: number;
  readonly #horizonMs: number;
  readonly #historyMs: number;
  readonly #offsets = new Map<League, number>();
  // A slot's games are the same every time; hashing their ids is the costly part of a listing.
  readonly #slots = new Map<string, DemoGame[]>();
  readonly #byId = new Map<string, DemoGame>();

  constructor(options: DemoOptions) {
    this.#anchor = options.anchor.getTime();
    if (!Number.isFinite(this.#anchor)) throw new Error('The demo market needs an anchor time');
    this.#anchorIso = options.anchor.toISOString();
    this.#slotMs = positive(options.slotMinutes ?? 10, 'slotMinutes') * MINUTE;
    this.#perSlot = Math.floor(positive(options.gamesPerSlot ?? 3, 'gamesPerSlot'));
    this.#durationMs = positive(options.durationMinutes ?? 6, 'durationMinutes') * MINUTE;
    this.#horizonMs = positive(options.horizonHours ?? 48, 'horizonHours') * HOUR;
    this.#historyMs = positive(options.historyHours ?? 72, 'historyHours') * HOUR;
    const leagues = [...new Set(options.leagues)];
    for (const [i, league] of leagues.entries()) {
      sportOf(league);
      if (!MODELS[league] || !DEMO_TEAMS[league])
        throw new Error(`The demo market has no teams for ${league}`);
      // Leagues staggered across the slot, in whole minutes: a game starts every couple of minutes somewhere.
      this.#offsets.set(league, Math.floor((i * this.#slotMs) / leagues.length / MINUTE) * MINUTE);
    }
  }

  get leagues(): League[] {
    return [...this.#offsets.keys()];
  }

  get durationMs(): number {
    return this.#durationMs;
  }

  /** The league's games starting within [now - history, now + horizon]. */
  games(league: League, now: number): DemoGame[] {
    const offset = this.#offsets.get(league);
    if (offset === undefined) return [];
    const base = this.#anchor + offset;
    const first = Math.ceil((now - this.#historyMs - base) / this.#slotMs);
    const last = Math.floor((now + this.#horizonMs - base) / this.#slotMs);
    const out: DemoGame[] = [];
    for (let slot = first; slot <= last; slot++)
      out.push(...this.#slot(league, slot, base + slot * this.#slotMs));
    return out;
  }

  /** A game listed now, by id. */
  find(id: string, now: number): DemoGame | undefined {
    if (!this.#byId.has(id)) for (const league of this.#offsets.keys()) this.games(league, now);
    return this.#byId.get(id);
  }

  #slot(league: League, slot: number, start: number): DemoGame[] {
    const cacheKey = `${league}|${slot}`;
    const cached = this.#slots.get(cacheKey);
    if (cached) return cached;
    if (this.#slots.size > 20_000) {
      this.#slots.clear();
      this.#byId.clear();
    }
    const teams = [...(DEMO_TEAMS[league] ?? [])];
    const model = MODELS[league];
    if (!model) return [];
    const sport = sportOf(league);
    const random = prng(fnv1a(`${this.#anchorIso}|${league}|${slot}`));
    const count = Math.min(this.#perSlot, Math.floor(teams.length / 2));
    // A partial shuffle: the slot's first 2 × count teams, each once.
    for (let i = 0; i < count * 2; i++) {
      const j = i + Math.floor(random() * (teams.length - i));
      [teams[i], teams[j]] = [teams[j] as string, teams[i] as string];
    }
    const games: DemoGame[] = [];
    for (let i = 0; i < count; i++) {
      const id = createHash('sha256')
        .update(`pickreel-demo|${this.#anchorIso}|${league}|${slot}|${i}`)
        .digest('hex')
        .slice(0, 32);
      const seed = fnv1a(id);
      const strength = prng(seed);
      const mu = model.homeEdge + (strength() * 2 - 1) * model.strengthRange;
      const tau = model.totalBase + (strength() * 2 - 1) * model.totalRange;
      const game: MarketGame = {
        id,
        league,
        home: teams[i * 2] as string,
        away: teams[i * 2 + 1] as string,
        startsAt: isoSecond(start),
      };
      const demoGame = { game, sport, seed, model, mu, tau };
      games.push(demoGame);
      this.#byId.set(id, demoGame);
    }
    this.#slots.set(cacheKey, games);
    return games;
  }

  /** The books' prices at `now`, frozen at the last step before the start. */
  books(demo: DemoGame, start: number, now: number): Book[] {
    const { game, model, seed } = demo;
    const at = Math.min(now, start - 1);
    const step = Math.floor(at / PRICE_BUCKET_MS);
    const muNow = demo.mu + walk(seed, step) * model.drift;
    const tauNow = demo.tau + walk(hash2(seed, 7), step) * model.totalDrift;
    const choice = prng(hash2(seed, 1));
    const count = 6 + Math.floor(choice() * 3);
    const order = DEMO_BOOKS.map((_, i) => i);
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(choice() * (order.length - i));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    const chosen = order.slice(0, count).sort((a, b) => a - b);
    return chosen.map((index) => {
      const { key, title } = DEMO_BOOKS[index] as { key: string; title: string };
      const bookSeed = hash2(seed, 1000 + index);
      const character = prng(bookSeed);
      const margin = 0.04 + 0.01 * character();
      const lineBias = (character() * 2 - 1) * model.bookJitter;
      const totalBias = (character() * 2 - 1) * model.totalJitter;
      const mu = muNow + lineBias + walk(bookSeed, step) * model.bookJitter * 0.5;
      const tau = tauNow + totalBias + walk(hash2(bookSeed, 7), step) * model.totalJitter * 0.5;
      const markets: Book['markets'] = {};

      const homeWins = normalCdf(mu / model.sigma);
      if (model.draws) {
        const draw = Math.min(0.3, Math.max(0.15, 0.28 - 0.15 * Math.abs(mu / model.sigma)));
        markets.h2h = [
          { name: game.home, price: american((1 - draw) * homeWins * (1 + margin)) },
          { name: game.away, price: american((1 - draw) * (1 - homeWins) * (1 + margin)) },
          { name: 'Draw', price: american(draw * (1 + margin)) },
        ];
      } else {
        markets.h2h = [
          { name: game.home, price: american(homeWins * (1 + margin)) },
          { name: game.away, price: american((1 - homeWins) * (1 + margin)) },
        ];
      }

      const homePoint =
        model.fixedSpread === null ? roundHalf(-mu) : mu >= 0 ? -model.fixedSpread : model.fixedSpread;
      const homeCovers = normalCdf((mu + homePoint) / model.sigma);
      markets.spreads = [
        { name: game.home, price: american(homeCovers * (1 + margin)), point: homePoint },
        { name: game.away, price: american((1 - homeCovers) * (1 + margin)), point: negate(homePoint) },
      ];

      const totalPoint = Math.max(0.5, roundHalf(tau));
      const over = 1 - normalCdf((totalPoint - tau) / model.totalSigma);
      markets.totals = [
        { name: 'Over', price: american(over * (1 + margin)), point: totalPoint },
        { name: 'Under', price: american((1 - over) * (1 + margin)), point: totalPoint },
      ];

      // The book last changed within its step, never after the prices froze.
      const updatedAt = Math.min(step * PRICE_BUCKET_MS + (hash2(bookSeed, step) % 30) * SECOND, at);
      return { key, title, updatedAt, markets };
    });
  }

  /** None before the start; a live score rising to the final; the final `durationMinutes` after the start. */
  score(demo: DemoGame, start: number, now: number): Score | null {
    if (now < start) return null;
    const final = this.#final(demo);
    const elapsed = now - start;
    if (elapsed >= this.#durationMs)
      return { ...final, completed: true, updatedAt: start + this.#durationMs };
    const share = elapsed / this.#durationMs;
    const home = Math.floor(final.home * share);
    const away = Math.floor(final.away * share);
    // When each side's score last rose: the score runs linearly to the final.
    const rose = (points: number, of: number) =>
      points === 0 ? start : start + Math.ceil((this.#durationMs * points) / of / SECOND) * SECOND;
    return {
      home,
      away,
      completed: false,
      updatedAt: Math.max(rose(home, final.home), rose(away, final.away)),
    };
  }

  #final({ seed, model, mu, tau }: DemoGame): { home: number; away: number } {
    const random = prng(hash2(seed, 0xf1a1));
    const margin = mu + model.sigma * gaussian(random);
    const total = Math.max(0, tau + model.totalSigma * gaussian(random));
    const clamp = (points: number) => {
      const value = Math.min(model.scoreMax, Math.max(model.scoreMin, Math.round(points)));
      // a football side cannot score exactly one point
      return model.tieBreak === 3 && value === 1 ? 0 : value;
    };
    let home = clamp((total + margin) / 2);
    let away = clamp((total - margin) / 2);
    if (home === away && model.tieBreak !== null) {
      const homeWins = margin > 0 || (margin === 0 && random() < 0.5);
      const winner = homeWins ? home : away;
      const [newWinner, newLoser] =
        winner + model.tieBreak <= model.scoreMax
          ? [winner + model.tieBreak, winner]
          : [winner, winner - model.tieBreak];
      if (homeWins) [home, away] = [newWinner, newLoser];
      else [away, home] = [newWinner, newLoser];
    }
    return { home, away };
  }
}

function positive(value: number, name: string): number {
  if (!(value > 0) || !Number.isFinite(value)) throw new Error(`The demo market's ${name} must be positive`);
  return value;
}

// --- The stand-in --------------------------------------------------------------------------------------------

interface AddedGame {
  game: MarketGame;
  books: Book[];
  score: Score | null;
}

/** Changes made through the control API to a demo game. */
interface DemoOverride {
  startsAt?: string;
  books?: Book[];
  /** null: no score shown. */
  score?: Score | null;
}

interface Listed {
  game: MarketGame;
  sport: Sport;
  start: number;
  score: Score | null;
  completed: boolean;
  books: () => Book[];
}

const NumberSchema = z.number();
const SpreadSchema = z.object({ home: NumberSchema, homePrice: NumberSchema, awayPrice: NumberSchema });
const TotalSchema = z.object({ point: NumberSchema, over: NumberSchema, under: NumberSchema });
const BookSchema = z.object({
  book: z.string().min(1),
  title: z.string().min(1).optional(),
  updatedAt: z.string().optional(),
  moneyline: z.object({ home: NumberSchema, away: NumberSchema, draw: NumberSchema.optional() }).optional(),
  spread: z.union([SpreadSchema, z.array(SpreadSchema)]).optional(),
  total: z.union([TotalSchema, z.array(TotalSchema)]).optional(),
});
const IdSchema = z.object({ id: z.string().min(1) });
const ScoreSchema = z.object({
  home: z.number().int().min(0),
  away: z.number().int().min(0),
  completed: z.boolean(),
});
const ControlSchemas = {
  'add-game': z.object({
    id: z.string().min(1).optional(),
    league: z.enum(LEAGUES),
    home: z.string().min(1),
    away: z.string().min(1),
    startsAt: z.string(),
  }),
  'move-start': IdSchema.extend({ startsAt: z.string() }),
  'remove-game': IdSchema,
  'set-odds': IdSchema.extend({ books: z.array(BookSchema) }),
  'set-score': IdSchema.extend(ScoreSchema.shape),
  'clear-score': IdSchema,
  'set-down': z.object({ down: z.union([z.boolean(), z.number().int()]) }),
  'set-credits': z.object({ credits: z.number().int().min(0) }),
  reset: z.object({}),
  requests: z.object({}),
  games: z.object({ league: z.enum(LEAGUES).optional() }),
};
type Control = keyof typeof ControlSchemas;

function isControl(name: string): name is Control {
  return Object.hasOwn(ControlSchemas, name);
}

function many<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function bookOf(input: StandInBook, game: MarketGame, now: number): Book {
  const markets: Book['markets'] = {};
  if (input.moneyline) {
    const { home, away, draw } = input.moneyline;
    markets.h2h = [
      { name: game.home, price: home },
      { name: game.away, price: away },
      ...(draw === undefined ? [] : [{ name: 'Draw', price: draw }]),
    ];
  }
  const spreads = many(input.spread).flatMap((line) => [
    { name: game.home, price: line.homePrice, point: line.home },
    { name: game.away, price: line.awayPrice, point: negate(line.home) },
  ]);
  if (spreads.length > 0) markets.spreads = spreads;
  const totals = many(input.total).flatMap((line) => [
    { name: 'Over', price: line.over, point: line.point },
    { name: 'Under', price: line.under, point: line.point },
  ]);
  if (totals.length > 0) markets.totals = totals;
  return {
    key: input.book,
    title: input.title ?? input.book,
    updatedAt: input.updatedAt === undefined ? now : parseTime(input.updatedAt, 'updatedAt'),
    markets,
  };
}

function checkScore(score: StandInScore): void {
  if (![score.home, score.away].every((points) => Number.isInteger(points) && points >= 0))
    throw new StandInError('A score is a whole number of points', 400);
}

function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function decimal(price: number): number {
  const value = price >= 0 ? 1 + price / 100 : 1 - 100 / price;
  return Math.round(value * 100) / 100;
}

export async function startMarketStandIn(options: MarketStandInOptions = {}): Promise<MarketStandIn> {
  const apiKey = options.apiKey ?? randomBytes(16).toString('hex');
  const host = options.host ?? '127.0.0.1';
  const startingCredits = options.credits ?? 1_000_000;
  const demo = options.demo ? new DemoMarket(options.demo) : null;
  const clock = options.now ?? options.demo?.now ?? (() => new Date());
  const now = () => clock().getTime();

  const added = new Map<string, AddedGame>();
  const overrides = new Map<string, DemoOverride>();
  const removed = new Set<string>();
  let down: boolean | number = false;
  let remaining = startingCredits;
  let used = 0;
  let counts: Record<StandInEndpoint, number> = { odds: 0, scores: 0, events: 0, sports: 0 };
  let last: StandInRequest | null = null;

  function list(league: League, at: number): Listed[] {
    const out: Listed[] = [];
    for (const { game, books, score } of added.values()) {
      if (game.league !== league) continue;
      out.push({
        game,
        sport: sportOf(league),
        start: Date.parse(game.startsAt),
        score,
        completed: score?.completed ?? false,
        books: () => books,
      });
    }
    if (demo) {
      for (const base of demo.games(league, at)) {
        if (removed.has(base.game.id)) continue;
        const override = overrides.get(base.game.id);
        const game = override?.startsAt ? { ...base.game, startsAt: override.startsAt } : base.game;
        const start = Date.parse(game.startsAt);
        const score = override?.score !== undefined ? override.score : demo.score(base, start, at);
        const books = override?.books;
        out.push({
          game,
          sport: base.sport,
          start,
          score,
          completed: score?.completed ?? false,
          books: books ? () => books : () => demo.books(base, start, at),
        });
      }
    }
    return out.sort((a, b) => a.start - b.start || (a.game.id < b.game.id ? -1 : 1));
  }

  /** An added game, or a demo game listed now. */
  function find(id: string): { added: AddedGame } | { demo: MarketGame } {
    const game = added.get(id);
    if (game) return { added: game };
    const found = removed.has(id) ? undefined : demo?.find(id, now());
    if (!found) throw new StandInError(`No game ${id}`, 404);
    const startsAt = overrides.get(id)?.startsAt;
    return { demo: startsAt ? { ...found.game, startsAt } : found.game };
  }

  function override(id: string, change: DemoOverride): void {
    overrides.set(id, { ...overrides.get(id), ...change });
  }

  const control = {
    addGame(input: StandInGameInput): MarketGame {
      sportOf(input.league);
      const id = input.id ?? randomBytes(16).toString('hex');
      if (added.has(id) || demo?.find(id, now())) throw new StandInError(`Game ${id} exists`, 409);
      if (input.home === input.away) throw new StandInError('A game is between two teams', 400);
      const game: MarketGame = {
        id,
        league: input.league,
        home: input.home,
        away: input.away,
        startsAt: isoSecond(parseTime(input.startsAt, 'startsAt')),
      };
      added.set(id, { game, books: [], score: null });
      return { ...game };
    },
    moveStart(id: string, startsAt: string | Date): MarketGame {
      const iso = isoSecond(parseTime(startsAt, 'startsAt'));
      const found = find(id);
      if ('added' in found) {
        found.added.game = { ...found.added.game, startsAt: iso };
        return { ...found.added.game };
      }
      override(id, { startsAt: iso });
      return { ...found.demo, startsAt: iso };
    },
    removeGame(id: string): void {
      const found = find(id);
      if ('added' in found) added.delete(id);
      else removed.add(id);
    },
    setOdds(id: string, books: StandInBook[]): void {
      const found = find(id);
      const game = 'added' in found ? found.added.game : found.demo;
      const converted = books.map((book) => bookOf(book, game, now()));
      if ('added' in found) found.added.books = converted;
      else override(id, { books: converted });
    },
    setScore(id: string, score: StandInScore): void {
      checkScore(score);
      const found = find(id);
      const stored: Score = {
        home: score.home,
        away: score.away,
        completed: score.completed,
        updatedAt: now(),
      };
      if ('added' in found) found.added.score = stored;
      else override(id, { score: stored });
    },
    clearScore(id: string): void {
      const found = find(id);
      if ('added' in found) found.added.score = null;
      else override(id, { score: null });
    },
    setDown(value: boolean | number): void {
      if (typeof value === 'number' && !(Number.isInteger(value) && value >= 400 && value <= 599))
        throw new StandInError('Down is true, false or an error status (400 to 599)', 400);
      down = value;
    },
    setCredits(credits: number): void {
      if (!(Number.isInteger(credits) && credits >= 0))
        throw new StandInError('Credits are a whole number', 400);
      remaining = credits;
    },
    requests(): StandInRequests {
      return { counts: { ...counts }, last: last && { ...last, query: { ...last.query } } };
    },
    reset(): void {
      added.clear();
      overrides.clear();
      removed.clear();
      down = false;
      remaining = startingCredits;
      used = 0;
      counts = { odds: 0, scores: 0, events: 0, sports: 0 };
      last = null;
    },
    games(league?: League): StandInListedGame[] {
      const at = now();
      const leagues = league ? [league] : SPORTS.map((sport) => sport.league);
      return leagues.flatMap((one) => list(one, at).map(({ game, completed }) => ({ ...game, completed })));
    },
  };

  function runControl(name: Control, body: unknown): unknown {
    switch (name) {
      case 'add-game':
        return control.addGame(ControlSchemas[name].parse(body));
      case 'move-start': {
        const input = ControlSchemas[name].parse(body);
        return control.moveStart(input.id, input.startsAt);
      }
      case 'remove-game':
        control.removeGame(ControlSchemas[name].parse(body).id);
        return { ok: true };
      case 'set-odds': {
        const input = ControlSchemas[name].parse(body);
        control.setOdds(input.id, input.books);
        return { ok: true };
      }
      case 'set-score': {
        const { id, ...score } = ControlSchemas[name].parse(body);
        control.setScore(id, score);
        return { ok: true };
      }
      case 'clear-score':
        control.clearScore(ControlSchemas[name].parse(body).id);
        return { ok: true };
      case 'set-down':
        control.setDown(ControlSchemas[name].parse(body).down);
        return { ok: true };
      case 'set-credits':
        control.setCredits(ControlSchemas[name].parse(body).credits);
        return { ok: true };
      case 'reset':
        ControlSchemas[name].parse(body);
        control.reset();
        return { ok: true };
      case 'requests':
        ControlSchemas[name].parse(body);
        return control.requests();
      case 'games':
        return control.games(ControlSchemas[name].parse(body).league);
    }
  }

  function send(
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    });
    res.end(text);
  }

  function quotaHeaders(cost: number): Record<string, string> {
    return {
      'x-requests-remaining': String(remaining),
      'x-requests-used': String(used),
      'x-requests-last': String(cost),
    };
  }

  async function handleControl(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const given = req.headers[STAND_IN_KEY_HEADER];
    if (typeof given !== 'string' || !sameKey(given, apiKey)) {
      req.resume();
      return send(res, 403, { message: 'Forbidden' });
    }
    const name = path.slice(CONTROL_PREFIX.length + 1);
    if (!isControl(name)) {
      req.resume();
      return send(res, 404, { message: `No control ${name}` });
    }
    if (req.method !== 'POST') {
      req.resume();
      return send(res, 405, { message: 'Controls are POST' }, { allow: 'POST' });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_CONTROL_BODY_BYTES) return send(res, 413, { message: 'Body too large' });
      chunks.push(chunk);
    }
    let body: unknown = {};
    const text = Buffer.concat(chunks).toString('utf8').trim();
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        return send(res, 400, { message: 'The body is not JSON' });
      }
    }
    try {
      send(res, 200, runControl(name, body));
    } catch (error) {
      if (error instanceof StandInError) return send(res, error.status, { message: error.message });
      if (error instanceof z.ZodError) return send(res, 400, { message: z.prettifyError(error) });
      throw error;
    }
  }

  function route(path: string): { kind: StandInEndpoint; sport: string | null } | null {
    const parts = path.replace(/\/+$/, '').split('/');
    // ['', 'v4', 'sports', sport?, endpoint?]
    if (parts[1] !== 'v4' || parts[2] !== 'sports') return null;
    if (parts.length === 3) return { kind: 'sports', sport: null };
    const endpoint = parts[4];
    if (parts.length !== 5 || (endpoint !== 'odds' && endpoint !== 'scores' && endpoint !== 'events'))
      return null;
    try {
      return { kind: endpoint, sport: decodeURIComponent(parts[3] ?? '') };
    } catch {
      return null;
    }
  }

  function gameJson(listed: Listed, unix: boolean) {
    return {
      id: listed.game.id,
      sport_key: listed.sport.key,
      sport_title: listed.sport.title,
      commence_time: unix ? Math.floor(listed.start / SECOND) : listed.game.startsAt,
      home_team: listed.game.home,
      away_team: listed.game.away,
    };
  }

  function handleProvider(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const found = route(url.pathname);
    if (found) {
      counts[found.kind] += 1;
      last = {
        kind: found.kind,
        sport: found.sport,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        search: url.search,
      };
    }
    if (down === true) {
      req.socket.destroy();
      return;
    }
    if (down !== false) return send(res, down, { message: 'The service is unavailable' });
    if (!found) return send(res, 404, { message: 'Not found' });
    if (req.method !== 'GET') return send(res, 405, { message: 'Method not allowed' }, { allow: 'GET' });

    const key = url.searchParams.get('apiKey');
    if (!key)
      return send(res, 401, {
        message: 'API key is missing. Add the apiKey query parameter.',
        error_code: 'MISSING_KEY',
      });
    if (!sameKey(key, apiKey))
      return send(res, 401, { message: 'API key is not valid.', error_code: 'INVALID_KEY' });

    if (found.kind === 'sports') {
      const sports = SPORTS.map(({ key: sportKey, group, title, description }) => ({
        key: sportKey,
        group,
        title,
        description,
        active: true,
        has_outrights: false,
      }));
      return send(res, 200, sports, quotaHeaders(0));
    }
    const sport = found.sport === null ? undefined : SPORT_BY_KEY.get(found.sport);
    if (!sport)
      return send(res, 404, {
        message: 'Unknown sport. Check /v4/sports for keys.',
        error_code: 'UNKNOWN_SPORT',
      });

    const query = url.searchParams;
    const dateFormat = query.get('dateFormat') ?? 'iso';
    if (dateFormat !== 'iso' && dateFormat !== 'unix')
      return send(res, 422, {
        message: 'Invalid dateFormat. Use iso or unix.',
        error_code: 'INVALID_DATE_FORMAT',
      });
    const unix = dateFormat === 'unix';
    const at = now();

    if (found.kind === 'events') {
      const events = list(sport.league, at)
        .filter((listed) => !listed.completed)
        .map((listed) => gameJson(listed, unix));
      return send(res, 200, events, quotaHeaders(0));
    }

    if (found.kind === 'scores') {
      const daysParam = query.get('daysFrom');
      let days: number | null = null;
      if (daysParam !== null) {
        days = Number(daysParam);
        if (!/^[1-3]$/.test(daysParam))
          return send(res, 422, {
            message: 'Invalid daysFrom. Use 1 to 3.',
            error_code: 'INVALID_DAYS_FROM',
          });
      }
      if (remaining <= 0) return outOfCredits(res);
      const since = days === null ? null : at - days * DAY;
      const scores = list(sport.league, at)
        .filter((listed) => !listed.completed || (since !== null && listed.start >= since))
        .map((listed) => ({
          ...gameJson(listed, unix),
          completed: listed.completed,
          scores: listed.score && [
            { name: listed.game.home, score: String(listed.score.home) },
            { name: listed.game.away, score: String(listed.score.away) },
          ],
          last_update: listed.score ? time(listed.score.updatedAt, unix) : null,
        }));
      return charge(res, scores, days === null ? 1 : 2);
    }

    const regions = (query.get('regions') ?? '').split(',').filter((region) => region !== '');
    if (regions.length === 0)
      return send(res, 422, { message: 'Missing regions parameter.', error_code: 'MISSING_REGION' });
    if (regions.some((region) => !REGIONS.has(region)))
      return send(res, 422, { message: 'Invalid regions parameter.', error_code: 'INVALID_REGION' });
    const marketParam = (query.get('markets') ?? 'h2h').split(',').filter((market) => market !== '');
    const markets = [...new Set(marketParam)];
    if (
      markets.length === 0 ||
      markets.some((market) => !(MARKET_KEYS as readonly string[]).includes(market))
    )
      return send(res, 422, { message: 'Invalid markets parameter.', error_code: 'INVALID_MARKET' });
    // The provider's default is decimal.
    const oddsFormat = query.get('oddsFormat') ?? 'decimal';
    if (oddsFormat !== 'american' && oddsFormat !== 'decimal')
      return send(res, 422, { message: 'Invalid oddsFormat.', error_code: 'INVALID_ODDS_FORMAT' });
    if (remaining <= 0) return outOfCredits(res);
    const asked = markets as MarketKey[];
    const withBooks = new Set(regions).has(BOOK_REGION);
    const games = [];
    for (const listed of list(sport.league, at)) {
      if (listed.completed || !withBooks) continue;
      const bookmakers = [];
      for (const book of listed.books()) {
        const lastUpdate = time(book.updatedAt, unix);
        const bookMarkets = [];
        for (const market of asked) {
          const outcomes = book.markets[market];
          if (!outcomes || outcomes.length === 0) continue;
          bookMarkets.push({
            key: market,
            last_update: lastUpdate,
            outcomes: outcomes.map(({ name, price, point }) => ({
              name,
              price: oddsFormat === 'american' ? price : decimal(price),
              ...(point === undefined ? {} : { point }),
            })),
          });
        }
        if (bookMarkets.length > 0)
          bookmakers.push({
            key: book.key,
            title: book.title,
            last_update: lastUpdate,
            markets: bookMarkets,
          });
      }
      // Like the provider, a game no book prices is not in the odds.
      if (bookmakers.length > 0) games.push({ ...gameJson(listed, unix), bookmakers });
    }
    // The provider's cost: markets × regions, nothing for an empty answer.
    return charge(res, games, games.length === 0 ? 0 : asked.length * regions.length);
  }

  function time(ms: number, unix: boolean): string | number {
    return unix ? Math.floor(ms / SECOND) : isoSecond(ms);
  }

  function outOfCredits(res: ServerResponse): void {
    send(
      res,
      401,
      {
        message: 'Usage quota has been reached. See usage plans at https://the-odds-api.com',
        error_code: 'OUT_OF_USAGE_CREDITS',
      },
      quotaHeaders(0),
    );
  }

  function charge(res: ServerResponse, body: unknown, cost: number): void {
    remaining = Math.max(0, remaining - cost);
    used += cost;
    send(res, 200, body, quotaHeaders(cost));
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const path = url.pathname;
    const handled =
      path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)
        ? handleControl(req, res, path)
        : Promise.resolve().then(() => handleProvider(req, res, url));
    handled.catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { message: error instanceof Error ? error.message : 'Failed' });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url,
    apiKey,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    ...control,
  };
}
