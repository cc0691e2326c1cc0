// The results feed (docs/results-feed.md): final scores in one documented JSON format, from a
// file, an address fetched on a schedule, or an admin's upload. A feed settles scheduled events only: an
// event it finds settled differently is a conflict, logged and left alone (a correction is an admin's).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import {
  FEED_JSON_MESSAGE,
  FeedDocumentSchema,
  type FeedDocument,
  type FeedResult,
  type ImportSummary,
} from '#common/schemas/results.js';
import { containsNulCharacter, NUL_CHARACTER_MESSAGE } from '#common/schemas/text.js';
import type { Db } from '#server/db/client.js';
import { OUTSIDE_LANE, type JobRunner } from '#server/jobs/index.js';
import { badRequest, HttpError } from '#server/lib/http-errors.js';
import { safeErrorMessage } from '#server/lib/log-safety.js';
import { settleEvent, type EventOutcome, type Settler } from './grading-service.js';
import { findEvent, type EventRow } from './picks-repository.js';
import { findEventByGame } from './results-repository.js';

/** Where an import's conflicts are told: the server's log, or the CLI's console. */
export interface FeedLog {
  warn(details: object, message: string): void;
}

/** Where results come from: a file, an address, or a sports-data API behind an adapter of its own. */
export interface ResultsProvider {
  /** Recorded as the settled events' source. */
  readonly name: string;
  /** The results as a feed document; throws when they cannot be had or are not one. */
  fetchResults(): Promise<FeedDocument>;
}

/** The feed document in `raw`, or a 400 naming the first problem (with the result's index). */
export function parseFeedDocument(raw: unknown): FeedDocument {
  // A fetched document's `\u0000` is a NUL once parsed: no team name with one reaches a query.
  if (containsNulCharacter(raw)) throw badRequest(NUL_CHARACTER_MESSAGE);
  const parsed = FeedDocumentSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const [, index] = issue.path;
  throw badRequest(typeof index === 'number' ? `Result ${index + 1}: ${issue.message}` : issue.message);
}

/** A feed document from JSON text. */
export function parseFeedText(text: string): FeedDocument {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw badRequest(FEED_JSON_MESSAGE);
  }
  return parseFeedDocument(raw);
}

/** A feed document on disk: the CLI import and tests. */
export class FileResultsProvider implements ResultsProvider {
  readonly name: string;
  constructor(
    private readonly file: string,
    name?: string,
  ) {
    this.name = name ?? `file:${path.basename(file)}`;
  }

  async fetchResults(): Promise<FeedDocument> {
    return parseFeedText(await readFile(this.file, 'utf8'));
  }
}

/** A feed larger than this is refused unread past it: a wrong address must not fill the memory. */
const MAX_FEED_BYTES = 4 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;

/** A feed document at an http(s) address (RESULTS_FEED_URL). */
export class HttpResultsProvider implements ResultsProvider {
  readonly name: string;
  constructor(
    private readonly url: string,
    private readonly options: { name?: string; timeoutMs?: number } = {},
  ) {
    // The host names the source; a path or query may carry an API key, which stays out of the database.
    this.name = options.name ?? `feed:${new URL(url).host}`;
  }

  async fetchResults(): Promise<FeedDocument> {
    const response = await fetch(this.url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(this.options.timeoutMs ?? FETCH_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`the results feed answered ${response.status}`);
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > MAX_FEED_BYTES) throw new Error(`the results feed is larger than ${MAX_FEED_BYTES} bytes`);
    const text = await response.text();
    if (text.length > MAX_FEED_BYTES)
      throw new Error(`the results feed is larger than ${MAX_FEED_BYTES} bytes`);
    return parseFeedText(text);
  }
}

function outcomeOf(result: FeedResult): EventOutcome {
  return result.status === 'final'
    ? { status: 'final', homeScore: result.homeScore, awayScore: result.awayScore }
    : { status: result.status };
}

function sameOutcome(event: EventRow, outcome: EventOutcome): boolean {
  if (event.status !== outcome.status) return false;
  return (
    outcome.status !== 'final' ||
    (event.homeScore === outcome.homeScore && event.awayScore === outcome.awayScore)
  );
}

const describeGame = (result: FeedResult) =>
  `${result.league} ${result.away} at ${result.home}, ${result.startsAt}`;

/**
 * Settles the known scheduled events of a feed document; skips those settled alike; counts and logs the
 * ones settled differently (conflicts) and games no pick is on (unknown). Safe to run again: a second import
 * of the same document settles nothing.
 */
export async function importResults(
  db: Db,
  document: FeedDocument,
  by: Settler,
  log: FeedLog,
  now = new Date(),
): Promise<ImportSummary> {
  const summary: ImportSummary = { settled: 0, alreadySettled: 0, unknown: 0, conflicts: 0 };
  for (const result of document.results) {
    const event = await findEventByGame(db, result);
    if (!event) {
      summary.unknown += 1;
      continue;
    }
    const outcome = outcomeOf(result);
    let current: EventRow | undefined = event;
    if (event.status === 'scheduled') {
      try {
        await settleEvent(db, event.id, outcome, by, now);
        summary.settled += 1;
        continue;
      } catch (error) {
        // 409: settled meanwhile (an admin or another import); compare with what it got. 400: a final
        // score for a game that has not started, which the feed cannot have: a conflict.
        if (!(error instanceof HttpError) || (error.statusCode !== 409 && error.statusCode !== 400))
          throw error;
        current = error.statusCode === 409 ? await findEvent(db, event.id) : undefined;
      }
    }
    if (current && sameOutcome(current, outcome)) {
      summary.alreadySettled += 1;
      continue;
    }
    summary.conflicts += 1;
    log.warn(
      {
        eventId: event.id,
        source: by.source,
        feed: outcome,
        current: current
          ? { status: current.status, homeScore: current.homeScore, awayScore: current.awayScore }
          : { status: current === undefined ? 'not started' : event.status },
      },
      `results feed conflict: ${describeGame(result)} left as it is (an admin may correct it)`,
    );
  }
  return summary;
}

/** Fetches the provider's results and imports them; what every schedule tick and the CLI run. */
export async function runResultsImport(
  db: Db,
  provider: ResultsProvider,
  log: FeedLog,
  now = new Date(),
): Promise<ImportSummary> {
  const document = await provider.fetchResults();
  return importResults(db, document, { adminId: null, source: provider.name }, log, now);
}

/**
 * Imports the provider's results every `intervalMs`, from the first start on, where the background work
 * runs (a recurring job: one worker per period). Failures are logged and never stop the server.
 */
export function scheduleResultsFeed(
  jobs: JobRunner,
  options: { db: Db; provider: ResultsProvider; intervalMs: number; log: FastifyBaseLogger },
): void {
  const { db, provider, log } = options;
  jobs.every(
    'import_results',
    options.intervalMs,
    async () => {
      try {
        const summary = await runResultsImport(db, provider, log);
        if (summary.settled || summary.conflicts)
          log.info({ source: provider.name, ...summary }, 'results feed imported');
      } catch (err) {
        log.warn({ source: provider.name, problem: safeErrorMessage(err) }, 'results feed failed');
      }
    },
    { lane: OUTSIDE_LANE },
  );
}
