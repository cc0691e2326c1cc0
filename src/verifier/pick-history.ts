// Each pick's story as the log tells it, checked against the log's own rules as the entries stream in
// (issue 15): a pick starts with `posted`; revisions, grades and removals follow a posting; one capper per
// pick; a grade names the commitment then current. Kept small per pick: a million entries stay in memory.
import type { LogEntry, LoggedBets, LoggedResult } from '../common/pick-log/index.js';
import { VerificationError } from './verification-error.js';

export interface LoggedGrade {
  /** The graded entry's index in the log. */
  index: number;
  /** null when a correction withdrew the grade. */
  result: LoggedResult | null;
  unitsWon: number | null;
  unitsRisked: number | null;
  /** The pick's bets by result; absent on entries logged before picks were bound to the market. */
  bets: LoggedBets | null;
  /** false: bound to the market, counted. true or absent (logged before the market): self-reported. */
  selfReported: boolean | null;
}

export interface PickHistory {
  videoId: number;
  capper: string;
  /** The commitment of the latest posted or revised entry. */
  commitment: string;
  /** The latest graded entry, if any. */
  grade: LoggedGrade | null;
  /** Whether a `removed` entry with reason "moderation" was logged: such a pick is off the record. */
  removedByModeration: boolean;
  removedByCapper: boolean;
}

export class PickHistories {
  private readonly picks = new Map<number, PickHistory>();
  private lastIndex = -1;

  /** Applies entry `index` (entries come in index order); throws VerificationError('entry') on a broken rule. */
  add(index: number, entry: LogEntry): void {
    if (index !== this.lastIndex + 1)
      throw new Error(`entries out of order: ${index} after ${this.lastIndex}`);
    this.lastIndex = index;
    const broken = (why: string) =>
      new VerificationError('entry', `entry ${index} (video ${entry.videoId}): ${why}`);
    const pick = this.picks.get(entry.videoId);

    if (entry.type === 'posted') {
      if (pick) throw broken('posted again; a pick is posted once, then revised');
      this.picks.set(entry.videoId, {
        videoId: entry.videoId,
        capper: entry.capper,
        commitment: entry.commitment,
        grade: null,
        removedByModeration: false,
        removedByCapper: false,
      });
      return;
    }
    if (!pick) throw broken(`${entry.type} before the pick was ever posted`);
    if (entry.capper !== pick.capper)
      throw broken(`logged for capper "${entry.capper}", but the pick was posted by "${pick.capper}"`);

    switch (entry.type) {
      case 'revised':
        if (pick.removedByModeration || pick.removedByCapper) throw broken('revised after it was removed');
        pick.commitment = entry.commitment;
        return;
      case 'graded':
        if (entry.commitment !== pick.commitment)
          throw broken(
            `graded under commitment ${entry.commitment}, but the pick's commitment is ${pick.commitment}`,
          );
        pick.grade = {
          index,
          result: entry.result ?? null,
          unitsWon: entry.unitsWon ?? null,
          unitsRisked: entry.unitsRisked ?? null,
          bets: entry.bets ?? null,
          selfReported: entry.selfReported ?? null,
        };
        return;
      case 'removed':
        if (entry.reason === 'moderation') pick.removedByModeration = true;
        else pick.removedByCapper = true;
        return;
    }
  }

  get size(): number {
    return this.picks.size;
  }

  values(): IterableIterator<PickHistory> {
    return this.picks.values();
  }

  get(videoId: number): PickHistory | undefined {
    return this.picks.get(videoId);
  }
}
