// A log entry: the RFC 8785 canonical UTF-8 bytes of a JSON object (pick-log.md 'Entries').
import { canonicalBytes, type Sha256 } from '../pick-seal.js';

export type { Sha256 };

export const LOG_ENTRY_TYPES = ['posted', 'revised', 'graded', 'removed'] as const;
export type LogEntryType = (typeof LOG_ENTRY_TYPES)[number];
export type LoggedResult = 'win' | 'loss' | 'push' | 'void';

/** A graded pick's bets by result: each leg of a straight pick, or the parlay as one (docs/pick-log.md). */
export interface LoggedBets {
  win: number;
  loss: number;
  push: number;
  void: number;
}

/**
 * Fields beyond the format page's first list (allowed: "more fields may be added"): `version` on posted and
 * revised (the pick's version number); `unitsRisked` on graded, so ROI can be recomputed from the log; on a
 * graded entry, `result`, `unitsWon` and `unitsRisked` are null when a correction withdrew a pick's grade.
 * Since picks are bound to the market, a graded entry also carries `bets` (null when withdrawn) and
 * `selfReported`; an entry without `selfReported` was graded before, and its pick is self-reported
 * (docs/pick-log.md 'Entries').
 */
export interface LogEntry {
  v: 1;
  type: LogEntryType;
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
}

const COMMITMENT = /^[0-9a-f]{64}$/;
// ISO-8601 UTC as picks write it (isoSeconds), fractions of a second allowed.
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;
const RESULTS: readonly string[] = ['win', 'loss', 'push', 'void'];
const REASONS: readonly string[] = ['moderation', 'capper'];

/** Throws an Error naming the first field that breaks pick-log.md's entry shape. */
function checkEntry(value: unknown): asserts value is LogEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('log entry: not a JSON object');
  const entry = value as Record<string, unknown>;
  const fail = (field: string, what: string): never => {
    throw new Error(`log entry: ${field} ${what}`);
  };
  // undefined counts as absent, as canonicalisation drops it
  const has = (field: string): boolean => entry[field] !== undefined;
  if (entry.v !== 1) fail('v', 'is not 1');
  if (typeof entry.type !== 'string' || !(LOG_ENTRY_TYPES as readonly string[]).includes(entry.type))
    fail('type', `is not one of ${LOG_ENTRY_TYPES.join(', ')}`);
  if (!Number.isSafeInteger(entry.videoId) || (entry.videoId as number) < 1)
    fail('videoId', 'is not a positive integer');
  if (typeof entry.capper !== 'string' || entry.capper === '') fail('capper', 'is not a non-empty string');
  if (typeof entry.commitment !== 'string' || !COMMITMENT.test(entry.commitment))
    fail('commitment', 'is not 64 lowercase hex digits');
  if (typeof entry.at !== 'string' || !UTC_TIME.test(entry.at) || Number.isNaN(Date.parse(entry.at)))
    fail('at', 'is not an ISO-8601 UTC time');
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
    const bets = entry.bets as Record<string, unknown>;
    if (
      typeof bets !== 'object' ||
      Array.isArray(bets) ||
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
}

/** The entry's bytes: RFC 8785 (JCS) canonical UTF-8. */
export function entryBytes(entry: LogEntry): Uint8Array {
  // Checked on the way in too: an entry the verifiers would refuse must never be appended.
  checkEntry(entry);
  return canonicalBytes(entry);
}

/** Parses and checks an entry's bytes (UTF-8 JSON of the shape above); throws an Error saying what is wrong. */
export function parseEntry(bytes: Uint8Array): LogEntry {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new Error('log entry: not UTF-8');
  }
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
