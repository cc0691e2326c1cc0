// ESPN's public scoreboard JSON as a second, free source of schedule and scores: no key and no credits, so
// results can be read without spending The Odds API's quota. It has no prices; the Odds API stays for those.
// Validation is plain code, like odds-api-provider.ts: a college slate over three days is hundreds of events.
import type { League } from '#common/schemas/picks.js';
import {
  MarketProviderError,
  type GameScore,
  type MarketGame,
  type MarketProvider,
  type ProviderAnswer,
  type Quota,
} from './provider.js';
import { failure, readBody, TooLargeError } from './fetch-body.js';

export const ESPN_BASE_URL = 'https://site.api.espn.com';
const DEFAULT_TIMEOUT_MS = 15_000;
/** A larger answer is refused: three days of every D1 game is a few MB, so this is a broken or hostile peer. */
export const MAX_ESPN_ANSWER_BYTES = 16 * 1024 * 1024;
/** An error's body is only read for its message. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;
/** ESPN states no quota: every answer says so. */
const NO_QUOTA: Quota = { remaining: null, used: null, last: null };

export interface EspnLeaguePath {
  sport: string;
  league: string;
  /** ESPN's group: without it the college scoreboards list only featured (ranked, televised) games. */
  groups?: string;
}

/** Each of our leagues' place on ESPN: /apis/site/v2/sports/{sport}/{league}/scoreboard. */
export const ESPN_LEAGUE_PATHS: Partial<Record<League, EspnLeaguePath>> = {
  NFL: { sport: 'football', league: 'nfl' },
  NBA: { sport: 'basketball', league: 'nba' },
  MLB: { sport: 'baseball', league: 'mlb' },
  NHL: { sport: 'hockey', league: 'nhl' },
  // 80: FBS; 50: all of Division I
  'College Football': { sport: 'football', league: 'college-football', groups: '80' },
  'College Basketball': { sport: 'basketball', league: 'mens-college-basketball', groups: '50' },
  Soccer: { sport: 'soccer', league: 'usa.1' },
};

export interface EspnScoreboardOptions {
  /** Default https://site.api.espn.com; tests point it at a local server. */
  baseUrl?: string;
  leagues: readonly League[];
  /** For the whole call, body included. Default 15 s. */
  timeoutMs?: number;
  /** The clock that picks the `dates` window; tests pin it. */
  now?: () => Date;
}

/** The schedule and scores half of a MarketProvider; ESPN's scoreboard carries no prices. */
export class EspnScoreboard implements Omit<MarketProvider, 'odds'> {
  readonly name = 'espn';
  readonly leagues: readonly League[];
  readonly #baseUrl: string;
  readonly #timeoutMs: number;
  readonly #now: () => Date;

  constructor(options: EspnScoreboardOptions) {
    this.#baseUrl = (options.baseUrl ?? ESPN_BASE_URL).replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#now = options.now ?? (() => new Date());
    const unmapped = options.leagues.filter((league) => !ESPN_LEAGUE_PATHS[league]);
    if (unmapped.length > 0) throw new Error(`ESPN has no scoreboard for ${unmapped.join(', ')}`);
    this.leagues = [...options.leagues];
  }

  /** Upcoming and live games from yesterday through tomorrow (yesterday: ESPN's days are US days). */
  async schedule(league: League): Promise<ProviderAnswer<MarketGame[]>> {
    const body = await this.#get(league, 1);
    return { data: parseEspnSchedule(body, league), quota: { ...NO_QUOTA } };
  }

  /** Every game from `daysFrom` days ago (1 to 3) through tomorrow, with its score when it has one. */
  async scores(league: League, daysFrom: number): Promise<ProviderAnswer<GameScore[]>> {
    // As The Odds API takes it: 1 to 3, and a value that is not a number asks for the most.
    const days = Number.isNaN(daysFrom) ? 3 : Math.min(3, Math.max(1, Math.round(daysFrom)));
    const body = await this.#get(league, days);
    return { data: parseEspnScores(body, league), quota: { ...NO_QUOTA } };
  }

  async #get(league: League, daysBack: number): Promise<unknown[]> {
    const place = ESPN_LEAGUE_PATHS[league];
    if (!place) throw new MarketProviderError(`${this.name}: no scoreboard for ${league}`);
    const path = `/apis/site/v2/sports/${place.sport}/${place.league}/scoreboard`;
    const what = `${this.name} GET ${path}`;
    const query = `dates=${espnDates(this.#now(), daysBack)}&limit=1000${place.groups ? `&groups=${place.groups}` : ''}`;
    const signal = AbortSignal.timeout(this.#timeoutMs);
    let response: Response;
    try {
      // A redirect is not followed: the host is configured, and an answer from elsewhere is not ESPN's.
      response = await fetch(`${this.#baseUrl}${path}?${query}`, {
        signal,
        redirect: 'manual',
        headers: { accept: 'application/json' },
      });
    } catch (error) {
      throw new MarketProviderError(`${what}: ${failure(error, this.#timeoutMs)}`);
    }
    if (!response.ok) {
      const said = await readErrorMessage(response, signal);
      throw new MarketProviderError(
        `${what}: HTTP ${response.status}${said ? `: ${said}` : ''}`,
        response.status,
      );
    }
    let text: string;
    try {
      text = await readBody(response, MAX_ESPN_ANSWER_BYTES);
    } catch (error) {
      throw new MarketProviderError(
        `${what}: ${failure(error, this.#timeoutMs)}`,
        error instanceof TooLargeError ? response.status : null,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new MarketProviderError(`${what}: the answer is not JSON`, response.status);
    }
    if (!isObject(body) || !Array.isArray(body.events))
      throw new MarketProviderError(`${what}: the answer is not a scoreboard`, response.status);
    return body.events;
  }
}

/** `YYYYMMDD-YYYYMMDD` from `daysBack` days before `now` through the day after, by UTC dates. */
export function espnDates(now: Date, daysBack: number): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');
  return `${day(today - daysBack * DAY_MS)}-${day(today + DAY_MS)}`;
}


/** ESPN's errors are `{"code": 400, "message": "..."}` or a CDN's page; either gives a short message. */
async function readErrorMessage(response: Response, signal: AbortSignal): Promise<string | null> {
  let text: string;
  try {
    text = await readBody(response, MAX_ERROR_BODY_BYTES);
  } catch {
    if (!signal.aborted) await response.body?.cancel().catch(() => {});
    return null;
  }
  try {
    const body: unknown = JSON.parse(text);
    if (isObject(body) && typeof body.message === 'string') return snippet(body.message) || null;
  } catch {
    // Not JSON: the start of it is the best there is.
  }
  return snippet(text) || null;
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const MAX_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59);
const HAS_ZONE = /(?:Z|[+-]\d\d:?\d\d)$/i;
// ESPN writes minutes without seconds ('2026-11-29T01:00Z'); checked field by field, no Date, on the fast path.
const UTC_TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,9})?)?Z$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** ISO-8601 UTC to the second ('2026-11-29T01:00:00Z'), or null. A time without a zone is taken as UTC. */
function isoSecond(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const utc = UTC_TIME.exec(value);
  if (utc) {
    const [, year, month, day, hour, minute, second = '00'] = utc;
    const leap = Number(year) % 4 === 0 && (Number(year) % 100 !== 0 || Number(year) % 400 === 0);
    const days = Number(month) === 2 && leap ? 29 : (DAYS_IN_MONTH[Number(month) - 1] ?? 0);
    const valid =
      Number(year) >= 1970 &&
      Number(day) >= 1 &&
      Number(day) <= days &&
      Number(hour) < 24 &&
      Number(minute) < 60 &&
      Number(second) < 60;
    return valid ? `${year}-${month}-${day}T${hour}:${minute}:${second}Z` : null;
  }
  const ms = Date.parse(HAS_ZONE.test(value) ? value : `${value}Z`);
  if (!Number.isFinite(ms) || ms < 0 || ms > MAX_TIME_MS) return null;
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

const WHOLE = /^\d{1,6}$/;

/** A competitor's score: a string ("102") on the site API, a number or `{value}` on some others. */
function wholeScore(value: unknown): number | null {
  if (typeof value === 'string') return WHOLE.test(value) ? Number(value) : null;
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 && value < 1e6 ? value : null;
  if (isObject(value)) return wholeScore(value.value);
  return null;
}

/**
 * Statuses that carry no result to grade on. ESPN may mark them `completed` with a 0-0 score; whether the
 * game is voided, moved or resumed is left to an admin.
 */
const NO_RESULT_STATUSES = new Set([
  'STATUS_POSTPONED',
  'STATUS_CANCELED',
  'STATUS_CANCELLED',
  'STATUS_ABANDONED',
  'STATUS_FORFEIT',
]);

interface EspnGame {
  game: MarketGame;
  /** ESPN's status.type: state 'pre' | 'in' | 'post' (or another word), and its name ('STATUS_FINAL'). */
  state: string | null;
  statusName: string | null;
  completed: boolean;
  homeScore: number | null;
  awayScore: number | null;
}

interface Side {
  name: string;
  score: number | null;
}

/** One event, or null when it cannot be read; only what a game needs is checked. */
function parseEvent(raw: JsonObject, league: League): EspnGame | null {
  const rawId = raw.id;
  const id =
    typeof rawId === 'string' && rawId.trim() !== ''
      ? rawId.trim()
      : typeof rawId === 'number' && Number.isSafeInteger(rawId)
        ? String(rawId)
        : null;
  if (id === null) return null;
  const competition = Array.isArray(raw.competitions) ? raw.competitions[0] : undefined;
  if (!isObject(competition) || !Array.isArray(competition.competitors)) return null;
  let home: Side | null = null;
  let away: Side | null = null;
  for (const competitor of competition.competitors) {
    if (!isObject(competitor) || !isObject(competitor.team)) return null;
    const name = competitor.team.displayName;
    if (typeof name !== 'string' || name.trim() === '') return null;
    const side = { name: name.trim(), score: wholeScore(competitor.score) };
    if (competitor.homeAway === 'home' && home === null) home = side;
    else if (competitor.homeAway === 'away' && away === null) away = side;
    else return null;
  }
  if (home === null || away === null || home.name === away.name) return null;
  // A start ESPN does not know yet (a college game 'TBD') carries a placeholder time: no game to bind to.
  if (competition.timeValid === false) return null;
  const startsAt = isoSecond(raw.date) ?? isoSecond(competition.date);
  if (startsAt === null) return null;
  // The competition's status is the game's; the event's is the same on ESPN's scoreboards, read if it is missing.
  const status = isObject(competition.status) ? competition.status : raw.status;
  const type = isObject(status) && isObject(status.type) ? status.type : null;
  if (type === null) return null;
  const state = typeof type.state === 'string' ? type.state : null;
  const statusName = typeof type.name === 'string' ? type.name.toUpperCase() : null;
  const noResult = statusName !== null && NO_RESULT_STATUSES.has(statusName);
  const completed = type.completed === true && !noResult;
  let homeScore = home.score;
  let awayScore = away.score;
  // Before the start ESPN shows 0-0, which is no score; a postponed or cancelled game's 0-0 is none either.
  if (noResult || state === 'pre' || homeScore === null || awayScore === null) {
    // A final must be whole to grade on.
    if (completed) return null;
    homeScore = null;
    awayScore = null;
  }
  return {
    game: { id: `espn:${id}`, league, home: home.name, away: away.name, startsAt },
    state,
    statusName,
    completed,
    homeScore,
    awayScore,
  };
}

/** Each event once, in ESPN's order; what cannot be read is skipped, never the whole answer. */
function eachEvent(body: unknown[], league: League): EspnGame[] {
  const seen = new Set<string>();
  const out: EspnGame[] = [];
  for (const raw of body) {
    if (!isObject(raw)) continue;
    const parsed = parseEvent(raw, league);
    if (parsed === null || seen.has(parsed.game.id)) continue;
    seen.add(parsed.game.id);
    out.push(parsed);
  }
  return out;
}

/** The scoreboard's upcoming and live games: over, postponed and cancelled ones are not on the schedule. */
export function parseEspnSchedule(events: unknown[], league: League): MarketGame[] {
  return eachEvent(events, league)
    .filter(
      (event) =>
        (event.state === 'pre' || event.state === 'in') &&
        !event.completed &&
        !(event.statusName !== null && NO_RESULT_STATUSES.has(event.statusName)),
    )
    .map((event) => event.game);
}

/**
 * Every game on the scoreboard with its score. ESPN states no time a score changed, so `updatedAt` is null
 * rather than a guess.
 */
export function parseEspnScores(events: unknown[], league: League): GameScore[] {
  return eachEvent(events, league).map(({ game, completed, homeScore, awayScore }) => ({
    game,
    completed,
    homeScore,
    awayScore,
    updatedAt: null,
  }));
}

export interface TeamsAndStart {
  home: string;
  away: string;
  /** ISO-8601. */
  startsAt: string;
  /** When given: games of two leagues are never the same, and college names are compared more strictly. */
  league?: League;
}

/** A club's designation, not its name: 'Seattle Sounders FC' is 'Seattle Sounders' elsewhere. */
const CLUB_DESIGNATORS = new Set(['fc', 'sc', 'cf', 'afc']);
/** Last words several teams of one league end with: the whole name tells them apart. */
const SHARED_LAST_WORDS = new Set(['state', 'sox', 'united', 'city']);
/**
 * Mascots several Division I schools share ('Kentucky Wildcats', 'Arizona Wildcats'); applied only to college
 * leagues, where they are common, so that 'LA Rams' still matches 'Los Angeles Rams' in the NFL.
 */
const COLLEGE_SHARED_MASCOTS = new Set(
  [
    'aggies bears bearcats bison blazers bobcats broncos bruins buccaneers bulldogs bulls cardinals catamounts',
    'cavaliers chargers colonials cougars cowboys crusaders devils dolphins dons dukes eagles falcons flames',
    'gaels gamecocks grizzlies hawks highlanders hornets huskies jaguars jaspers knights lancers leopards lions',
    'lumberjacks mavericks miners mountaineers mustangs owls panthers pilots pioneers pirates raiders rams',
    'rebels redhawks roadrunners rockets seahawks spartans tigers titans trojans vikings warriors wildcats',
    'wolfpack wolves',
  ]
    .join(' ')
    .split(' '),
);
const COLLEGE_LEAGUES: readonly League[] = ['College Football', 'College Basketball'];

function nameWords(name: string): string[] {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    // 'St. Louis' is 'St Louis', "Hawai'i" is 'Hawaii'; other marks ('A&M', '(OH)') separate words
    .replace(/['’`.]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  const named = words.filter((word) => !CLUB_DESIGNATORS.has(word));
  return named.length > 0 ? named : words;
}

/** A team's nickname ('clippers'), or its whole normalised name when the nickname is shared. */
function teamKey(name: string, college: boolean): string {
  const words = nameWords(name);
  const last = words.at(-1) ?? '';
  const shared = SHARED_LAST_WORDS.has(last) || (college && COLLEGE_SHARED_MASCOTS.has(last));
  return shared ? words.join(' ') : last;
}

/**
 * Whether two providers' listings are one game: the same home and away teams by nickname, starting within
 * `maxHours` of each other. Home and away swapped is another game (a series' other venue).
 */
export function sameGameByTeams(a: TeamsAndStart, b: TeamsAndStart, maxHours = 12): boolean {
  if (a.league !== undefined && b.league !== undefined && a.league !== b.league) return false;
  const aStart = Date.parse(a.startsAt);
  const bStart = Date.parse(b.startsAt);
  if (!Number.isFinite(aStart) || !Number.isFinite(bStart)) return false;
  if (Math.abs(aStart - bStart) > maxHours * 60 * 60 * 1000) return false;
  const college = [a.league, b.league].some(
    (league) => league !== undefined && COLLEGE_LEAGUES.includes(league),
  );
  const aHome = teamKey(a.home, college);
  const aAway = teamKey(a.away, college);
  if (aHome === '' || aAway === '' || aHome === aAway) return false;
  return aHome === teamKey(b.home, college) && aAway === teamKey(b.away, college);
}
