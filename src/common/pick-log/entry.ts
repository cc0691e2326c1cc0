// A log entry: the RFC 8785 canonical UTF-8 bytes of a JSON object (pick-log.md 'Entries').
import type { Sha256 } from '../pick-seal.js';

export type { Sha256 };

export const LOG_ENTRY_TYPES = ['posted', 'revised', 'graded', 'removed'] as const;
export type LogEntryType = (typeof LOG_ENTRY_TYPES)[number];
export type LoggedResult = 'win' | 'loss' | 'push' | 'void';

/**
 * Fields beyond the format page's list (allowed: "more fields may be added"): `version` on posted and
 * revised (the pick's version number); `unitsRisked` on graded, so ROI can be recomputed from the log; on a
 * graded entry, `result`, `unitsWon` and `unitsRisked` are null when a correction withdrew a pick's grade.
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
  reason?: 'moderation' | 'capper';
}

/** The entry's bytes: RFC 8785 (JCS) canonical UTF-8. */
export function entryBytes(entry: LogEntry): Uint8Array {
  throw new Error('not implemented');
}

/** Parses and checks an entry's bytes (UTF-8 JSON of the shape above); throws an Error saying what is wrong. */
export function parseEntry(bytes: Uint8Array): LogEntry {
  throw new Error('not implemented');
}
