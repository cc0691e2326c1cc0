// A log entry: the RFC 8785 canonical UTF-8 bytes of a JSON object (pick-log.md 'Entries').
import { canonicalBytes, isSealedPick, type SealedPick, type Sha256 } from '../pick-seal.js';

export type { Sha256 };

/** What a pick's entries say happened to it. */
export const PICK_ENTRY_TYPES = ['posted', 'revised', 'graded', 'removed'] as const;
/** The evidence a grade rests on: a game's outcome, its correction, its closing prices. */
export const EVIDENCE_ENTRY_TYPES = ['settled', 'corrected', 'closed'] as const;
export const LOG_ENTRY_TYPES = [...PICK_ENTRY_TYPES, ...EVIDENCE_ENTRY_TYPES] as const;
export type PickEntryType = (typeof PICK_ENTRY_TYPES)[number];
export type EvidenceEntryType = (typeof EVIDENCE_ENTRY_TYPES)[number];
export type LogEntryType = (typeof LOG_ENTRY_TYPES)[number];
export type LoggedResult = 'win' | 'loss' | 'push' | 'void';

/**
 * The format's versions (docs/pick-log.md 'Versions'): 1, picks only; 2, the evidence entries and graded
 * entries that carry their sealed pick and each leg's grounds. Entries are appended at the latest version.
 */
export const LOG_FORMAT_VERSIONS = [1, 2] as const;
export type LogFormatVersion = (typeof LOG_FORMAT_VERSIONS)[number];
export const LOG_FORMAT_VERSION: LogFormatVersion = 2;

/** A graded pick's bets by result: each leg of a straight pick, or the parlay as one (docs/pick-log.md). */
export interface LoggedBets {
  win: number;
  loss: number;
  push: number;
  void: number;
}

/**
 * On what a leg's result rests: `score`, the outcome in the `settled` or `corrected` entry named by its hash
 * (by rule for a moneyline, spread or total; void for a postponed or cancelled game); `admin`, an admin's
 * grade of a prop or other bet, with its reason; `late`, void because the pick was posted at or after the
 * game's real start `start`; null while the leg has no result (a withdrawn grade).
 */
export interface LoggedLeg {
  result: LoggedResult | null;
  basis: 'score' | 'admin' | 'late' | null;
  /** Lowercase hex SHA-256 of the bytes of the outcome entry, when the game has one in the log. */
  settled: string | null;
  reason?: string;
  start?: string;
}

/**
 * An entry about a pick. Fields beyond the format page's first list: `version` on posted and revised (the
 * pick's version number); `unitsRisked` on graded, so ROI can be recomputed from the log; on a graded entry,
 * `result`, `unitsWon` and `unitsRisked` are null when a correction withdrew a pick's grade. Since picks are
 * bound to the market, a graded entry also carries `bets` (null when withdrawn) and `selfReported`; an entry
 * without `selfReported` was graded before, and its pick is self-reported. Version 2 graded entries add the
 * revealed `sealed` pick and `legs`, one per sealed leg, so a grade can be recomputed from the log alone.
 */
export interface PickEntry {
  v: LogFormatVersion;
  type: PickEntryType;
  videoId: number;
  capper: string;
  commitment: string;
  at: string;
  version?: number;
  result?: LoggedResult | null;
  unitsWon?: number | null;
  unitsRisked?: number | null;
  bets?: LoggedBets | null;
  selfReported?: boolean;
  reason?: 'moderation' | 'capper';
  sealed?: SealedPick;
  legs?: LoggedLeg[];
}

/** A game's outcome: scores when final, null otherwise. */
export interface LoggedOutcome {
  status: 'final' | 'postponed' | 'cancelled';
  homeScore: number | null;
  awayScore: number | null;
}

/** The game an evidence entry is about: the site's event, and the market's game where it is one. */
export interface LoggedGame {
  event: number;
  /** `<provider>:<the provider's game id>`, as sealed legs write it; null for a self-reported game. */
  game: string | null;
  league: string;
  home: string;
  away: string;
  /** The official start when the entry was written. */
  startsAt: string;
}

/** A game's outcome, once: `source` is the provider, results feed, `admin` or `demo` that gave it. */
export interface SettledEntry extends LoggedGame, LoggedOutcome {
  v: 2;
  type: 'settled';
  at: string;
  source: string;
}

/** An admin's change of a game's outcome: the new outcome, the one it replaces and the entry that held it. */
export interface GameCorrectedEntry extends LoggedGame, LoggedOutcome {
  v: 2;
  type: 'corrected';
  at: string;
  source: string;
  before: LoggedOutcome;
  reason: string;
  /** The hash of the entry whose outcome this replaces; null when that outcome predates the evidence. */
  settled: string | null;
}

/** An admin's change of a leg graded by hand (a prop): its position in the sealed pick, before and after. */
export interface LegCorrectedEntry {
  v: 2;
  type: 'corrected';
  at: string;
  videoId: number;
  capper: string;
  commitment: string;
  leg: number;
  before: LoggedResult;
  after: LoggedResult;
  reason: string;
}

/** [market, side, line (null for a moneyline), American price]; side is home, away, over or under. */
export type LoggedPrice = [market: string, side: string, line: number | null, price: number];

/** One side at one line at the close: the best price among books and the consensus fair probability. */
export interface ClosingLine {
  market: string;
  side: string;
  line: number | null;
  best: number;
  book: string;
  /** null when no book priced both sides of that line. */
  fair: number | null;
}

/** A game's closing prices at its start: every book's, and the figures CLV is measured against. */
export interface ClosedEntry extends LoggedGame {
  v: 2;
  type: 'closed';
  at: string;
  /** When the snapshot was taken. */
  takenAt: string;
  books: { book: string; prices: LoggedPrice[] }[];
  prices: ClosingLine[];
}

export type EvidenceEntry = SettledEntry | GameCorrectedEntry | LegCorrectedEntry | ClosedEntry;
export type LogEntry = PickEntry | EvidenceEntry;

export function isPickEntry(entry: LogEntry): entry is PickEntry {
  return (PICK_ENTRY_TYPES as readonly string[]).includes(entry.type);
}

const COMMITMENT = /^[0-9a-f]{64}$/;
// ISO-8601 UTC as picks write it (isoSeconds), fractions of a second allowed.
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;
const RESULTS: readonly string[] = ['win', 'loss', 'push', 'void'];
const REASONS: readonly string[] = ['moderation', 'capper'];
const STATUSES: readonly string[] = ['final', 'postponed', 'cancelled'];
const BASES: readonly string[] = ['score', 'admin', 'late'];
const SIDES: readonly string[] = ['home', 'away', 'over', 'under'];
const PRICED_MARKETS: readonly string[] = ['moneyline', 'spread', 'total'];

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isTime = (value: unknown) =>
  typeof value === 'string' && UTC_TIME.test(value) && !Number.isNaN(Date.parse(value));
const isText = (value: unknown) => typeof value === 'string' && value !== '';
const isScore = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
const isOdds = (value: unknown) =>
  Number.isSafeInteger(value) && Math.abs(value as number) >= 100 && Math.abs(value as number) <= 100_000;
const isLine = (value: unknown) => value === null || (typeof value === 'number' && Number.isFinite(value));

/** Throws an Error naming the first field that breaks pick-log.md's entry shape. */
function checkEntry(value: unknown): asserts value is LogEntry {
  if (!isObject(value)) throw new Error('log entry: not a JSON object');
  const entry = value;
  const fail = (field: string, what: string): never => {
    throw new Error(`log entry: ${field} ${what}`);
  };
  if (!(LOG_FORMAT_VERSIONS as readonly unknown[]).includes(entry.v))
    fail('v', `is not a version this reader knows (${LOG_FORMAT_VERSIONS.join(' or ')})`);
  if (typeof entry.type !== 'string' || !(LOG_ENTRY_TYPES as readonly string[]).includes(entry.type))
    fail('type', `is not one of ${LOG_ENTRY_TYPES.join(', ')}`);
  if (!isTime(entry.at)) fail('at', 'is not an ISO-8601 UTC time');
  if ((EVIDENCE_ENTRY_TYPES as readonly string[]).includes(entry.type as string)) {
    if (entry.v !== 2) fail('v', `is not 2 on a ${entry.type as string} entry`);
    if (entry.type === 'corrected' && entry.videoId !== undefined) checkLegCorrection(entry, fail);
    else checkGameEntry(entry, fail);
    return;
  }
  checkPickEntry(entry, fail);
}

type Fail = (field: string, what: string) => never;

function checkPickFields(entry: Fields, fail: Fail): void {
  if (!Number.isSafeInteger(entry.videoId) || (entry.videoId as number) < 1)
    fail('videoId', 'is not a positive integer');
  if (!isText(entry.capper)) fail('capper', 'is not a non-empty string');
  if (typeof entry.commitment !== 'string' || !COMMITMENT.test(entry.commitment))
    fail('commitment', 'is not 64 lowercase hex digits');
}

function checkPickEntry(entry: Fields, fail: Fail): void {
  // undefined counts as absent, as canonicalisation drops it
  const has = (field: string): boolean => entry[field] !== undefined;
  checkPickFields(entry, fail);
  if (has('version') && (!Number.isSafeInteger(entry.version) || (entry.version as number) < 1))
    fail('version', 'is not a positive integer');
  if (entry.type === 'graded') {
    if (!has('result')) fail('result', 'is missing from a graded entry');
    if (!has('unitsWon')) fail('unitsWon', 'is missing from a graded entry');
  }
  if (has('result') && entry.result !== null && !RESULTS.includes(entry.result as string))
    fail('result', `is not one of ${RESULTS.join(', ')} or null`);
  for (const field of ['unitsWon', 'unitsRisked'])
    if (
      has(field) &&
      entry[field] !== null &&
      (typeof entry[field] !== 'number' || !Number.isFinite(entry[field]))
    )
      fail(field, 'is not a number or null');
  if (has('bets') && entry.bets !== null) {
    const bets = entry.bets;
    if (
      !isObject(bets) ||
      Object.keys(bets).length !== 4 ||
      !['win', 'loss', 'push', 'void'].every(
        (key) => Number.isSafeInteger(bets[key]) && (bets[key] as number) >= 0,
      )
    )
      fail('bets', 'is not {win, loss, push, void} counts or null');
  }
  if (has('selfReported') && typeof entry.selfReported !== 'boolean')
    fail('selfReported', 'is not a boolean');
  if (entry.type === 'removed' && !has('reason')) fail('reason', 'is missing from a removed entry');
  if (has('reason') && !REASONS.includes(entry.reason as string))
    fail('reason', `is not one of ${REASONS.join(', ')}`);
  // A pick sealed before its legs were structured has none to ground: its grade carries neither.
  if (entry.v === 2 && entry.type === 'graded' && (has('sealed') || has('legs'))) {
    if (!isSealedPick(entry.sealed)) fail('sealed', 'is not a sealed pick');
    const sealed = entry.sealed as SealedPick;
    if (sealed.videoId !== entry.videoId) fail('sealed', 'is the sealed pick of another video');
    if (!isTime(sealed.postedAt)) fail('sealed.postedAt', 'is not an ISO-8601 UTC time');
    for (const [i, leg] of (sealed.legs as unknown[]).entries())
      checkSealedLeg(leg, `sealed.legs[${i}]`, fail);
    if (!Array.isArray(entry.legs) || entry.legs.length !== sealed.legs.length)
      fail('legs', 'is not one grade per sealed leg');
    for (const [i, leg] of (entry.legs as unknown[]).entries()) checkLoggedLeg(leg, `legs[${i}]`, fail);
  } else if (has('sealed') || has('legs'))
    fail(has('sealed') ? 'sealed' : 'legs', 'belongs to a graded entry of version 2');
}

const MARKETS: readonly string[] = ['moneyline', 'spread', 'total', 'prop', 'other'];

/** A revealed leg has what regrading reads: its game, market, side, line, odds and stake. */
function checkSealedLeg(leg: unknown, name: string, fail: Fail): void {
  if (!isObject(leg)) fail(name, 'is not a leg');
  const fields = leg as Fields;
  for (const field of ['league', 'home', 'away', 'side'])
    if (typeof fields[field] !== 'string') fail(`${name}.${field}`, 'is not a string');
  if (!isTime(fields.startsAt)) fail(`${name}.startsAt`, 'is not an ISO-8601 UTC time');
  if (!MARKETS.includes(fields.market as string))
    fail(`${name}.market`, `is not one of ${MARKETS.join(', ')}`);
  if (!isLine(fields.line)) fail(`${name}.line`, 'is not a number or null');
  if (!isOdds(fields.odds)) fail(`${name}.odds`, 'is not American odds');
  if (typeof fields.units !== 'number' || !(fields.units > 0))
    fail(`${name}.units`, 'is not a positive number');
  if (fields.game !== undefined && !isText(fields.game)) fail(`${name}.game`, 'is not a string');
  if (fields.price !== undefined) {
    const price = fields.price;
    if (
      !isObject(price) ||
      !isText(price.book) ||
      !isOdds(price.odds) ||
      !isLine(price.line) ||
      !isTime(price.at)
    )
      fail(`${name}.price`, 'is not {book, odds, line, at}');
  }
}

function checkLoggedLeg(leg: unknown, name: string, fail: Fail): void {
  if (!isObject(leg)) fail(name, 'is not an object');
  const fields = leg as Fields;
  if (fields.result !== null && !RESULTS.includes(fields.result as string))
    fail(`${name}.result`, `is not one of ${RESULTS.join(', ')} or null`);
  if (fields.result === null ? fields.basis !== null : !BASES.includes(fields.basis as string))
    fail(`${name}.basis`, `is not one of ${BASES.join(', ')} (null only without a result)`);
  if (fields.settled !== null && (typeof fields.settled !== 'string' || !COMMITMENT.test(fields.settled)))
    fail(`${name}.settled`, 'is not 64 lowercase hex digits or null');
  if (fields.basis === 'score' && fields.settled === null)
    fail(`${name}.settled`, 'is missing from a leg graded by the score');
  if (fields.basis === 'admin' && !isText(fields.reason)) fail(`${name}.reason`, 'is missing');
  if (fields.basis === 'late' && !isTime(fields.start)) fail(`${name}.start`, 'is not an ISO-8601 UTC time');
}

function checkOutcome(entry: Fields, name: string, fail: Fail): void {
  if (!STATUSES.includes(entry.status as string))
    fail(`${name}status`, `is not one of ${STATUSES.join(', ')}`);
  const final = entry.status === 'final';
  for (const field of ['homeScore', 'awayScore'])
    if (final ? !isScore(entry[field]) : entry[field] !== null)
      fail(`${name}${field}`, final ? 'is not a score' : 'is not null for a game without a final score');
}

function checkGameEntry(entry: Fields, fail: Fail): void {
  if (!Number.isSafeInteger(entry.event) || (entry.event as number) < 1)
    fail('event', 'is not a positive integer');
  if (entry.game !== null && !isText(entry.game)) fail('game', 'is not a string or null');
  for (const field of ['league', 'home', 'away'])
    if (!isText(entry[field])) fail(field, 'is not a non-empty string');
  if (!isTime(entry.startsAt)) fail('startsAt', 'is not an ISO-8601 UTC time');
  if (entry.type === 'closed') {
    if (typeof entry.game !== 'string') fail('game', 'is missing: only a market game closes');
    if (!isTime(entry.takenAt)) fail('takenAt', 'is not an ISO-8601 UTC time');
    if (!Array.isArray(entry.books)) fail('books', 'is not a list');
    for (const [i, book] of (entry.books as unknown[]).entries()) {
      if (!isObject(book) || !isText(book.book) || !Array.isArray(book.prices))
        fail(`books[${i}]`, 'is not a book and its prices');
      for (const price of (book as Fields).prices as unknown[])
        if (
          !Array.isArray(price) ||
          price.length !== 4 ||
          !PRICED_MARKETS.includes(price[0] as string) ||
          !SIDES.includes(price[1] as string) ||
          !isLine(price[2]) ||
          !isOdds(price[3])
        )
          fail(`books[${i}].prices`, 'holds a price that is not [market, side, line, odds]');
    }
    if (!Array.isArray(entry.prices)) fail('prices', 'is not a list');
    for (const [i, line] of (entry.prices as unknown[]).entries())
      if (
        !isObject(line) ||
        !PRICED_MARKETS.includes(line.market as string) ||
        !SIDES.includes(line.side as string) ||
        !isLine(line.line) ||
        !isOdds(line.best) ||
        !isText(line.book) ||
        !(line.fair === null || (typeof line.fair === 'number' && line.fair > 0 && line.fair < 1))
      )
        fail(`prices[${i}]`, 'is not {market, side, line, best, book, fair}');
    return;
  }
  checkOutcome(entry, '', fail);
  if (!isText(entry.source)) fail('source', 'is not a non-empty string');
  if (entry.type === 'corrected') {
    if (!isObject(entry.before)) fail('before', 'is not an outcome');
    checkOutcome(entry.before as Fields, 'before.', fail);
    if (!isText(entry.reason)) fail('reason', 'is not a non-empty string');
    if (entry.settled !== null && (typeof entry.settled !== 'string' || !COMMITMENT.test(entry.settled)))
      fail('settled', 'is not 64 lowercase hex digits or null');
  }
}

function checkLegCorrection(entry: Fields, fail: Fail): void {
  checkPickFields(entry, fail);
  if (!Number.isSafeInteger(entry.leg) || (entry.leg as number) < 0) fail('leg', 'is not a leg position');
  if (!RESULTS.includes(entry.before as string)) fail('before', `is not one of ${RESULTS.join(', ')}`);
  if (!RESULTS.includes(entry.after as string)) fail('after', `is not one of ${RESULTS.join(', ')}`);
  if (!isText(entry.reason)) fail('reason', 'is not a non-empty string');
}

/** The entry's bytes: RFC 8785 (JCS) canonical UTF-8. */
export function entryBytes(entry: LogEntry): Uint8Array {
  // Checked on the way in too: an entry the verifiers would refuse must never be appended.
  checkEntry(entry);
  return canonicalBytes(entry);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Parses and checks an entry's bytes (UTF-8 JSON of the shape above); throws an Error saying what is wrong. */
export function parseEntry(bytes: Uint8Array): LogEntry {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new Error('log entry: not UTF-8');
  }
  return parseEntryText(text);
}

/** parseEntry of bytes already decoded, for a caller that also needs their text (the verifier's canonical check). */
export function parseEntryText(text: string): LogEntry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('log entry: not JSON');
  }
  checkEntry(value);
  // Fields beyond the list are kept: "more fields may be added" (pick-log.md 'Entries').
  return value;
}
