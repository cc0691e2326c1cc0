// The Odds API v4 adapter (docs/decisions/025): the provider's JSON normalised into provider.ts's shapes.
// Validation is plain code rather than zod: a full slate is tens of thousands of outcomes per call.
import { ODDS_API_SPORT_KEYS, type PricedMarket } from '#common/market.js';
import type { League } from '#common/schemas/picks.js';
import {
  MarketProviderError,
  type BookPrices,
  type GameOdds,
  type GameScore,
  type MarketGame,
  type MarketPrice,
  type MarketProvider,
  type PreparedOdds,
  type ProviderAnswer,
  type Quota,
} from './provider.js';
import { failure, readBody, TooLargeError } from './fetch-body.js';
import { prepareOddsOffThread } from './odds-worker-client.js';

export const ODDS_API_BASE_URL = 'https://api.the-odds-api.com';
const DEFAULT_TIMEOUT_MS = 15_000;
/** A larger answer is refused: a full slate of every book is a few MB, so this is a broken or hostile peer. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** An error's body is only read for its message and error code. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;
const ODDS_QUERY = 'regions=us&markets=h2h,spreads,totals&oddsFormat=american&dateFormat=iso';
const REDACTED = '[redacted]';

export interface OddsApiProviderOptions {
  apiKey: string;
  /** Default https://api.the-odds-api.com; tests and the demo point it at the stand-in. */
  baseUrl?: string;
  leagues: readonly League[];
  /** Merged over ODDS_API_SPORT_KEYS. */
  sportKeys?: Partial<Record<League, string>>;
  /** For the whole call, body included. Default 15 s. */
  timeoutMs?: number;
}

type Endpoint = 'odds' | 'scores' | 'events';

export class OddsApiProvider implements MarketProvider {
  readonly name = 'the-odds-api';
  readonly leagues: readonly League[];
  // Private fields: the key stays out of anything that dumps the provider (a logger, util.inspect, JSON).
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #sportKeys: Partial<Record<League, string>>;
  readonly #timeoutMs: number;

  constructor(options: OddsApiProviderOptions) {
    if (options.apiKey.trim() === '') throw new Error('The Odds API needs an API key');
    this.#apiKey = options.apiKey;
    this.#baseUrl = (options.baseUrl ?? ODDS_API_BASE_URL).replace(/\/+$/, '');
    this.#sportKeys = { ...ODDS_API_SPORT_KEYS, ...options.sportKeys };
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const unpriced = options.leagues.filter((league) => !this.#sportKeys[league]);
    if (unpriced.length > 0) throw new Error(`The Odds API has no sport key for ${unpriced.join(', ')}`);
    this.leagues = [...options.leagues];
  }

  async schedule(league: League): Promise<ProviderAnswer<MarketGame[]>> {
    const { body, quota } = await this.#get(league, 'events', 'dateFormat=iso');
    return { data: parseEventsAnswer(body, league), quota };
  }

  async odds(league: League): Promise<ProviderAnswer<GameOdds[]>> {
    const { body, quota } = await this.#get(league, 'odds', ODDS_QUERY);
    return { data: parseOddsAnswer(body, league), quota };
  }

  /** The odds fetched and prepared to write on a thread of their own (odds-worker-client.ts). */
  prepareOdds(league: League): Promise<PreparedOdds> {
    return prepareOddsOffThread(
      {
        apiKey: this.#apiKey,
        baseUrl: this.#baseUrl,
        leagues: [league],
        sportKeys: this.#sportKeys,
        timeoutMs: this.#timeoutMs,
      },
      league,
    );
  }

  async scores(league: League, daysFrom: number): Promise<ProviderAnswer<GameScore[]>> {
    // The provider takes 1 to 3; a value that is not a number asks for the most.
    const days = Number.isNaN(daysFrom) ? 3 : Math.min(3, Math.max(1, Math.round(daysFrom)));
    const { body, quota } = await this.#get(league, 'scores', `daysFrom=${days}&dateFormat=iso`);
    return { data: parseScoresAnswer(body, league), quota };
  }

  async #get(league: League, endpoint: Endpoint, query: string): Promise<{ body: unknown[]; quota: Quota }> {
    const sport = this.#sportKeys[league];
    if (!sport) throw new MarketProviderError(`${this.name}: no sport key for ${league}`);
    const path = `/v4/sports/${encodeURIComponent(sport)}/${endpoint}`;
    // Named by its path only: the query carries the key.
    const what = `${this.name} GET ${path}`;
    const url = `${this.#baseUrl}${path}?apiKey=${encodeURIComponent(this.#apiKey)}&${query}`;
    const signal = AbortSignal.timeout(this.#timeoutMs);
    let response: Response;
    try {
      // A redirect is not followed: it would carry the key to wherever it points.
      response = await fetch(url, { signal, redirect: 'manual', headers: { accept: 'application/json' } });
    } catch (error) {
      throw new MarketProviderError(this.#redact(`${what}: ${failure(error, this.#timeoutMs)}`));
    }
    const quota = readQuota(response.headers);
    if (!response.ok) {
      const detail = await readErrorDetail(response, signal);
      const quotaExhausted =
        detail.code === 'OUT_OF_USAGE_CREDITS' ||
        ((response.status === 401 || response.status === 429) &&
          detail.message !== null &&
          /quota|usage credits|out of credits/i.test(detail.message));
      const said = detail.message ?? detail.code;
      throw new MarketProviderError(
        this.#redact(`${what}: HTTP ${response.status}${said ? `: ${said}` : ''}`),
        response.status,
        quotaExhausted,
      );
    }
    let text: string;
    try {
      text = await readBody(response, MAX_ANSWER_BYTES);
    } catch (error) {
      throw new MarketProviderError(
        this.#redact(`${what}: ${failure(error, this.#timeoutMs)}`),
        error instanceof TooLargeError ? response.status : null,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new MarketProviderError(`${what}: the answer is not JSON`, response.status);
    }
    if (!Array.isArray(body))
      throw new MarketProviderError(`${what}: the answer is not a list`, response.status);
    return { body, quota };
  }

  /** Whatever reaches a message passes here: the URL, or a peer echoing it, must not leak the key. */
  #redact(text: string): string {
    let out = text.replaceAll(this.#apiKey, REDACTED);
    const encoded = encodeURIComponent(this.#apiKey);
    if (encoded !== this.#apiKey) out = out.replaceAll(encoded, REDACTED);
    return out;
  }
}


/** The Odds API's error body is `{"message": "...", "error_code": "..."}`; anything else gives a snippet. */
async function readErrorDetail(
  response: Response,
  signal: AbortSignal,
): Promise<{ message: string | null; code: string | null }> {
  let text: string;
  try {
    text = await readBody(response, MAX_ERROR_BODY_BYTES);
  } catch {
    if (!signal.aborted) await response.body?.cancel().catch(() => {});
    return { message: null, code: null };
  }
  try {
    const body: unknown = JSON.parse(text);
    if (isObject(body)) {
      const message = typeof body.message === 'string' ? snippet(body.message) : null;
      const code = typeof body.error_code === 'string' ? snippet(body.error_code) : null;
      return { message, code };
    }
  } catch {
    // Not JSON (a proxy's page): the start of it is the best there is.
  }
  const message = snippet(text);
  return { message: message === '' ? null : message, code: null };
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

/** The x-requests-* headers; null for one that is missing or not a number. */
export function readQuota(headers: Headers): Quota {
  return {
    remaining: headerNumber(headers, 'x-requests-remaining'),
    used: headerNumber(headers, 'x-requests-used'),
    last: headerNumber(headers, 'x-requests-last'),
  };
}

function headerNumber(headers: Headers, name: string): number | null {
  const value = headers.get(name);
  if (value === null || value.trim() === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const MAX_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59);
const HAS_ZONE = /(?:Z|[+-]\d\d:?\d\d)$/i;
// The provider's own form: checked field by field, no Date, since a slate carries tens of thousands of them.
const UTC_TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.\d{1,9})?Z$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** ISO-8601 UTC to the second ('2026-11-28T19:30:00Z'), or null. A time without a zone is taken as UTC. */
function isoSecond(value: unknown): string | null {
  if (typeof value === 'string') {
    const utc = UTC_TIME.exec(value);
    if (utc) return validUtc(utc) ? `${value.slice(0, 19)}Z` : null;
    return fromMs(Date.parse(HAS_ZONE.test(value) ? value : `${value}Z`));
  }
  // dateFormat=unix: seconds
  if (typeof value === 'number') return fromMs(value * 1000);
  return null;
}

function validUtc(fields: RegExpExecArray): boolean {
  const year = Number(fields[1]);
  const month = Number(fields[2]);
  const day = Number(fields[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  return (
    year >= 1970 &&
    day >= 1 &&
    day <= days &&
    Number(fields[4]) < 24 &&
    Number(fields[5]) < 60 &&
    Number(fields[6]) < 60
  );
}

function fromMs(ms: number): string | null {
  if (!Number.isFinite(ms) || ms < 0 || ms > MAX_TIME_MS) return null;
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

function parseGame(raw: JsonObject, league: League): MarketGame | null {
  const { id, home_team: home, away_team: away } = raw;
  if (typeof id !== 'string' || id === '') return null;
  if (typeof home !== 'string' || home === '' || typeof away !== 'string' || away === '' || home === away)
    return null;
  const startsAt = isoSecond(raw.commence_time);
  if (startsAt === null) return null;
  return { id, league, home, away, startsAt };
}

/** Each game once, in the provider's order; what cannot be read is skipped, never the whole answer. */
function eachGame<T>(body: unknown[], read: (raw: JsonObject) => T | null): T[] {
  const out: T[] = [];
  for (const raw of body) {
    if (!isObject(raw)) continue;
    const item = read(raw);
    if (item !== null) out.push(item);
  }
  return out;
}

function once<T extends { game: MarketGame } | MarketGame>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const id = 'game' in item ? item.game.id : item.id;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** GET /v4/sports/{sport}/events, the games listed under our league whatever their sport_key. */
export function parseEventsAnswer(body: unknown[], league: League): MarketGame[] {
  return once(eachGame(body, (raw) => parseGame(raw, league)));
}

/** GET /v4/sports/{sport}/odds with h2h, spreads and totals in American odds. */
export function parseOddsAnswer(body: unknown[], league: League): GameOdds[] {
  return once(
    eachGame(body, (raw) => {
      const game = parseGame(raw, league);
      if (game === null) return null;
      const bookmakers = raw.bookmakers ?? [];
      if (!Array.isArray(bookmakers)) return null;
      const books: BookPrices[] = [];
      for (const bookmaker of bookmakers) {
        if (!isObject(bookmaker)) continue;
        const book = parseBook(bookmaker, game);
        if (book !== null) books.push(book);
      }
      return { game, books };
    }),
  );
}

function marketOf(key: unknown): PricedMarket | null {
  switch (key) {
    case 'h2h':
      return 'moneyline';
    case 'spreads':
      return 'spread';
    case 'totals':
      return 'total';
    default:
      return null;
  }
}

/** A book with no usable price, or no time to date its prices by, is left out. */
function parseBook(raw: JsonObject, game: MarketGame): BookPrices | null {
  const { key, title, markets } = raw;
  if (typeof key !== 'string' || key === '' || !Array.isArray(markets)) return null;
  const prices: MarketPrice[] = [];
  const bookUpdate = isoSecond(raw.last_update);
  // Without the book's own time, the latest of its priced markets' stands in.
  let marketUpdate: string | null = null;
  for (const market of markets) {
    if (!isObject(market)) continue;
    const kind = marketOf(market.key);
    if (kind === null || !Array.isArray(market.outcomes)) continue;
    const before = prices.length;
    for (const outcome of market.outcomes) {
      if (!isObject(outcome)) continue;
      const price = parseOutcome(outcome, kind, game);
      if (price !== null) prices.push(price);
    }
    if (bookUpdate === null && prices.length > before) {
      const updated = isoSecond(market.last_update);
      if (updated !== null && (marketUpdate === null || updated > marketUpdate)) marketUpdate = updated;
    }
  }
  const updatedAt = bookUpdate ?? marketUpdate;
  if (prices.length === 0 || updatedAt === null) return null;
  return { book: key, title: typeof title === 'string' && title !== '' ? title : key, updatedAt, prices };
}

function parseOutcome(raw: JsonObject, market: PricedMarket, game: MarketGame): MarketPrice | null {
  const { name, price, point } = raw;
  if (typeof name !== 'string') return null;
  // American odds are whole numbers at least 100 away from zero; anything else is not a price.
  if (typeof price !== 'number' || !Number.isInteger(price) || (price < 100 && price > -100)) return null;
  if (market === 'moneyline') {
    // A Draw (soccer's three-way line) is dropped: legs are graded two-way.
    if (name !== game.home && name !== game.away) return null;
    return { market, side: name, point: null, price };
  }
  if (typeof point !== 'number' || !Number.isFinite(point)) return null;
  // -0 would read as "0" but compare oddly
  const line = point === 0 ? 0 : point;
  if (market === 'spread') {
    if (name !== game.home && name !== game.away) return null;
    return { market, side: name, point: line, price };
  }
  const side = name.toLowerCase();
  if (side !== 'over' && side !== 'under') return null;
  return { market, side, point: line, price };
}

/** GET /v4/sports/{sport}/scores, whose scores are strings ("102"). */
export function parseScoresAnswer(body: unknown[], league: League): GameScore[] {
  return once(
    eachGame(body, (raw) => {
      const game = parseGame(raw, league);
      if (game === null || typeof raw.completed !== 'boolean') return null;
      const completed = raw.completed;
      let homeScore: number | null = null;
      let awayScore: number | null = null;
      if (Array.isArray(raw.scores)) {
        for (const entry of raw.scores) {
          if (!isObject(entry)) continue;
          if (entry.name === game.home) homeScore = wholeNumber(entry.score);
          else if (entry.name === game.away) awayScore = wholeNumber(entry.score);
        }
      }
      if (homeScore === null || awayScore === null) {
        // A final must be whole to grade on; a live game may show no score yet.
        if (completed) return null;
        homeScore = null;
        awayScore = null;
      }
      const updatedAt = raw.last_update === null ? null : isoSecond(raw.last_update);
      return { game, completed, homeScore, awayScore, updatedAt };
    }),
  );
}

const WHOLE = /^\d{1,6}$/;

function wholeNumber(value: unknown): number | null {
  if (typeof value === 'string') return WHOLE.test(value) ? Number(value) : null;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  return null;
}
