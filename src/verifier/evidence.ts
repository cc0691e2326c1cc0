// The log's evidence as the entries stream in (docs/pick-log.md 'Evidence'): each game's outcomes (settled,
// then corrections, each naming the one it replaces) and its closing prices, checked against the log's rules
// and, for closing prices, recomputed from the books' own prices.
import { hash } from 'node:crypto';
import type {
  ClosedEntry,
  GameCorrectedEntry,
  LoggedOutcome,
  SettledEntry,
} from '../common/pick-log/index.js';
import { closingFigures, figureKey } from './regrade.js';
import { VerificationError } from './verification-error.js';

export type OutcomeEntry = SettledEntry | GameCorrectedEntry;

export interface LoggedOutcomeAt {
  index: number;
  entry: OutcomeEntry;
}

/** SHA-256 of an entry's bytes in lowercase hex: how a later entry names it. */
export const entryHash = (bytes: Uint8Array): string => hash('sha256', bytes, 'hex');

const sameOutcome = (a: LoggedOutcome, b: LoggedOutcome) =>
  a.status === b.status && a.homeScore === b.homeScore && a.awayScore === b.awayScore;

export const outcomeText = (outcome: LoggedOutcome) =>
  outcome.status === 'final' ? `final ${outcome.homeScore}-${outcome.awayScore}` : outcome.status;

export class Evidence {
  /** Every outcome entry by its hash. */
  private readonly outcomes = new Map<string, LoggedOutcomeAt>();
  /** Each event's latest outcome, by the event's id. */
  private readonly latest = new Map<number, string>();
  /** Each market game's latest closing prices, by `<provider>:<game id>`, with their figures. */
  private readonly closings = new Map<
    string,
    { index: number; entry: ClosedEntry; fair: Map<string, number | null> }
  >();
  /** Outcomes by market game, for the late legs checked at the end. */
  private readonly latestByGame = new Map<string, string>();

  add(index: number, entry: SettledEntry | GameCorrectedEntry | ClosedEntry, bytes: Uint8Array): void {
    const broken = (why: string) =>
      new VerificationError('entry', `entry ${index} (${entry.type}, event ${entry.event}): ${why}`);
    if (entry.type === 'closed') {
      this.closings.set(entry.game!, { index, entry, fair: checkedClosing(entry, broken) });
      return;
    }
    const current = this.latest.get(entry.event);
    if (entry.type === 'settled') {
      if (current !== undefined)
        throw broken(
          `settles a game already settled in entry ${this.outcomes.get(current)!.index}; a change of outcome is a corrected entry`,
        );
    } else if (entry.settled !== null || current !== undefined) {
      if (entry.settled !== current)
        throw broken(
          current === undefined
            ? 'corrects an outcome the log does not hold'
            : `corrects entry ${entry.settled === null ? '(none)' : (this.outcomes.get(entry.settled)?.index ?? 'unknown')}, but the game's latest outcome is entry ${this.outcomes.get(current)!.index}`,
        );
      const replaced = this.outcomes.get(current)!.entry;
      if (!sameOutcome(replaced, entry.before))
        throw broken(
          `says it replaces ${outcomeText(entry.before)}, but the outcome it names is ${outcomeText(replaced)}`,
        );
    }
    const id = entryHash(bytes);
    this.outcomes.set(id, { index, entry });
    this.latest.set(entry.event, id);
    if (entry.game) this.latestByGame.set(entry.game, id);
  }

  outcome(hash: string): LoggedOutcomeAt | undefined {
    return this.outcomes.get(hash);
  }

  isLatest(hash: string): boolean {
    const found = this.outcomes.get(hash);
    return found !== undefined && this.latest.get(found.entry.event) === hash;
  }

  latestOfGame(game: string): OutcomeEntry | undefined {
    const id = this.latestByGame.get(game);
    return id === undefined ? undefined : this.outcomes.get(id)!.entry;
  }

  closing(game: string): { entry: ClosedEntry; fair: Map<string, number | null> } | undefined {
    return this.closings.get(game);
  }
}

/**
 * A closed entry's lines, each checked against what its books' prices give (the best price, a book that
 * offers it, the consensus fair probability), and every priced side and line listed. Returns the fair
 * probabilities by `market|side|line`.
 */
function checkedClosing(
  entry: ClosedEntry,
  broken: (why: string) => VerificationError,
): Map<string, number | null> {
  const figures = closingFigures(entry.books);
  const fair = new Map<string, number | null>();
  for (const line of entry.prices) {
    const id = figureKey(line.market, line.side, line.line);
    const computed = figures.get(id);
    const name = `${line.market} ${line.side}${line.line === null ? '' : ` ${line.line}`}`;
    if (!computed) throw broken(`lists a closing price for ${name}, which no book priced`);
    if (computed.best !== line.best)
      throw broken(
        `says the best closing price of ${name} was ${line.best}; its books' best is ${computed.best}`,
      );
    const book = entry.books.find((b) => b.book === line.book);
    if (
      !book?.prices.some(
        ([m, s, l, price]) => m === line.market && s === line.side && l === line.line && price === line.best,
      )
    )
      throw broken(`says ${line.book} offered ${name} at ${line.best}, but its prices do not`);
    const agree =
      computed.fair === null
        ? line.fair === null
        : line.fair !== null && Math.abs(computed.fair - line.fair) <= 1e-12;
    if (!agree)
      throw broken(
        `says the closing fair probability of ${name} is ${line.fair}; its books give ${computed.fair}`,
      );
    fair.set(id, computed.fair);
  }
  if (fair.size !== figures.size) throw broken('leaves out closing prices its books offered');
  return fair;
}
