// Each pick's story as the log tells it, checked against the log's own rules as the entries stream in: a
// pick starts with `posted`; revisions, grades and removals follow a posting; one capper per pick; a grade
// names the commitment then current. A grade of format 2 carries its revealed pick and its legs' grounds:
// it is regraded here from the outcomes logged before it (docs/pick-log.md 'Regrading'). Kept small per
// pick: a million entries stay in memory.
import {
  isPickEntry,
  type LogEntry,
  type LoggedBets,
  type LoggedResult,
  type PickEntry,
} from '../common/pick-log/index.js';
import { isMarketLeg, type SealedLeg, type SealedPick } from '../common/pick-seal.js';
import { sealedCommitment } from './entry-bytes.js';
import { Evidence, outcomeText, type OutcomeEntry } from './evidence.js';
import {
  closingKey,
  decimalPayout,
  figureKey,
  gradeFromLegs,
  pickClv,
  resultFromScore,
  type PickClv,
} from './regrade.js';
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
  /** Whether the entry carried its evidence and was regraded from it (format 2). */
  regraded: boolean;
}

/** A regraded pick's legs as its CLV needs them, measured once the whole log is read. */
interface ClvLeg {
  result: LoggedResult;
  odds: number;
  /** The market game and where the leg stands in its closing prices; null when it has no close. */
  game: string | null;
  key: string | null;
}

export interface PickHistory {
  videoId: number;
  capper: string;
  /** The commitment of the latest posted or revised entry. */
  commitment: string;
  /** The latest graded entry, if any. */
  grade: LoggedGrade | null;
  /** When the pick was first graded since its grade was last withdrawn (the record's periods). */
  gradedAt: string | null;
  /** gradedAt in milliseconds, set with it: the served figures compare grading times by the million. */
  gradedTime?: number | null;
  /** Its league as the record groups it: its legs' one league, or 'Mixed'; null before a regraded grade. */
  league: string | null;
  /** Its bets' closing line value; null until measured (at the end of the log) or without a regraded grade. */
  clv: PickClv | null;
  /** Whether a `removed` entry with reason "moderation" was logged: such a pick is off the record. */
  removedByModeration: boolean;
  removedByCapper: boolean;
  /** The latest regraded grade's revealed pick, for the served pages' legs. */
  sealed: SealedPick | null;
  /** Internal: the legs CLV is measured on, and the late voids to check against the game's start. */
  clvLegs: { parlay: boolean; legs: ClvLeg[] } | null;
  lateLegs: { leg: number; game: string; postedAt: string }[] | null;
}

export class PickHistories {
  private readonly picks = new Map<number, PickHistory>();
  readonly evidence = new Evidence();
  private lastIndex = -1;

  /**
   * Applies entry `index` (entries come in index order; `bytes` are the entry's, which evidence is named by);
   * throws VerificationError('entry') on a broken rule of the log, ('grade') on a grade its evidence denies.
   */
  add(index: number, entry: LogEntry, bytes: Uint8Array): void {
    if (index !== this.lastIndex + 1)
      throw new Error(`entries out of order: ${index} after ${this.lastIndex}`);
    this.lastIndex = index;
    if (!isPickEntry(entry)) {
      if (entry.type === 'corrected' && 'videoId' in entry) {
        const pick = this.picks.get(entry.videoId);
        if (!pick)
          throw new VerificationError(
            'entry',
            `entry ${index} (video ${entry.videoId}): a leg corrected before the pick was ever posted`,
          );
      } else if (!('videoId' in entry)) this.evidence.add(index, entry, bytes);
      return;
    }
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
        gradedAt: null,
        gradedTime: null,
        league: null,
        clv: null,
        removedByModeration: false,
        removedByCapper: false,
        sealed: null,
        clvLegs: null,
        lateLegs: null,
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
      case 'graded': {
        if (entry.commitment !== pick.commitment)
          throw broken(
            `graded under commitment ${entry.commitment}, but the pick's commitment is ${pick.commitment}`,
          );
        const regraded = entry.sealed !== undefined && entry.legs !== undefined;
        if (regraded) this.regrade(index, entry, pick);
        const result = entry.result ?? null;
        pick.grade = {
          index,
          result,
          unitsWon: entry.unitsWon ?? null,
          unitsRisked: entry.unitsRisked ?? null,
          bets: entry.bets ?? null,
          selfReported: entry.selfReported ?? null,
          regraded,
        };
        // As the site keeps it: the first grading time, until a correction withdraws the grade.
        pick.gradedAt = result === null ? null : (pick.gradedAt ?? entry.at);
        pick.gradedTime = pick.gradedAt === null ? null : Date.parse(pick.gradedAt);
        if (!regraded) {
          pick.sealed = null;
          pick.clvLegs = null;
          pick.lateLegs = null;
        }
        return;
      }
      case 'removed':
        if (entry.reason === 'moderation') pick.removedByModeration = true;
        else pick.removedByCapper = true;
        return;
    }
  }

  /** Regrades a format 2 graded entry from its revealed pick and the outcomes logged before it. */
  private regrade(index: number, entry: PickEntry, pick: PickHistory): void {
    const sealed = entry.sealed!;
    const grounds = entry.legs!;
    const wrong = (why: string) =>
      new VerificationError('grade', `entry ${index} (video ${entry.videoId}): ${why}`);
    const computed = sealedCommitment(sealed);
    if (computed !== entry.commitment)
      throw wrong(`its revealed pick hashes to ${computed}, not to the commitment ${entry.commitment}`);

    // Counted only when every leg is bound to the market: a leg without its game and price is the capper's word.
    const selfReported = !sealed.legs.every(isMarketLeg);
    if (entry.selfReported !== selfReported)
      throw wrong(
        selfReported
          ? 'its revealed pick has a self-reported leg (no market game and price), yet its grade counts on the record'
          : 'its grade says it is self-reported, but every revealed leg is bound to the market',
      );
    for (const [i, leg] of sealed.legs.entries()) {
      if (!isMarketLeg(leg)) continue;
      const price = leg.price!;
      const name = `leg ${i + 1} (${describeLeg(leg)})`;
      if (decimalPayout(leg.odds) > decimalPayout(price.odds) || price.line !== leg.line)
        throw wrong(
          `${name} is sealed at a better price or another line than its market evidence (${price.book} ${price.odds}${price.line === null ? '' : ` at ${price.line}`})`,
        );
      if (Date.parse(price.at) > Date.parse(sealed.postedAt))
        throw wrong(
          `${name}'s market price is from ${price.at}, after the pick was posted (${sealed.postedAt})`,
        );
    }
    const withdrawn = entry.result === null || entry.result === undefined;
    const results: { result: LoggedResult; odds: number; units: number }[] = [];
    const clvLegs: ClvLeg[] = [];
    const lateLegs: NonNullable<PickHistory['lateLegs']> = [];
    for (const [i, ground] of grounds.entries()) {
      const leg = sealed.legs[i]!;
      const name = `leg ${i + 1} (${describeLeg(leg)})`;
      if (ground.result === null) {
        if (!withdrawn) throw wrong(`${name} has no result, but the pick is graded ${entry.result}`);
        continue;
      }
      const outcome = ground.settled === null ? undefined : this.evidence.outcome(ground.settled);
      if (ground.settled !== null && !outcome)
        throw wrong(`${name} rests on outcome ${ground.settled}, which the log does not hold before it`);
      if (outcome && !sameGame(leg, outcome.entry))
        throw wrong(
          `${name} rests on the outcome of another game (entry ${outcome.index}: ${outcome.entry.away} at ${outcome.entry.home}, ${outcome.entry.startsAt})`,
        );
      const posted = Date.parse(sealed.postedAt);
      switch (ground.basis) {
        case 'score': {
          const { entry: settled, index: at } = outcome!;
          if (!this.evidence.isLatest(ground.settled!))
            throw wrong(`${name} rests on entry ${at}, an outcome a later correction replaced`);
          if (posted >= Date.parse(settled.startsAt))
            throw wrong(
              `${name} was posted at ${sealed.postedAt}, at or after its game's start (${settled.startsAt} in entry ${at}), yet it is graded by the score`,
            );
          const expected =
            settled.status === 'final'
              ? resultFromScore(leg, settled, { home: settled.homeScore!, away: settled.awayScore! })
              : 'void';
          if (expected === null) throw wrong(`${name} cannot be graded by the score, yet it says it was`);
          if (expected !== ground.result)
            throw wrong(
              `${name} is graded ${ground.result}, but the score in entry ${at} (${outcomeText(settled)}) makes it a ${expected}`,
            );
          break;
        }
        case 'admin':
          if (leg.market === 'moneyline' || leg.market === 'spread' || leg.market === 'total')
            throw wrong(`${name} is graded by hand, but a ${leg.market} is graded by the score`);
          if (outcome && outcome.entry.status !== 'final')
            throw wrong(
              `${name} is graded ${ground.result} by hand, but its game was ${outcome.entry.status}`,
            );
          break;
        case 'late':
          if (ground.result !== 'void')
            throw wrong(`${name} was posted after its game's start but is not void`);
          if (posted < Date.parse(ground.start!))
            throw wrong(
              `${name} is void as posted after its game's start (${ground.start}), but the pick was posted at ${sealed.postedAt}`,
            );
          if (leg.game) lateLegs.push({ leg: i, game: leg.game, postedAt: sealed.postedAt });
          break;
        default:
          throw wrong(`${name} has a result but no grounds`);
      }
      results.push({ result: ground.result, odds: leg.odds, units: leg.units });
      const key = isMarketLeg(leg) ? closingKey(leg, leg) : null;
      clvLegs.push({
        result: ground.result,
        odds: leg.odds,
        game: key ? leg.game! : null,
        key: key ? figureKey(key.market, key.side, key.line) : null,
      });
    }
    if (withdrawn) {
      if (results.length === grounds.length)
        throw wrong('its grade is withdrawn, but every leg has a result');
      if (entry.unitsWon != null || entry.unitsRisked != null || entry.bets != null)
        throw wrong('its grade is withdrawn, but it states units or bets');
    } else {
      const grade = gradeFromLegs(results, sealed.parlay);
      const bets = entry.bets;
      const sameBets =
        bets != null && (['win', 'loss', 'push', 'void'] as const).every((r) => bets[r] === grade.bets[r]);
      if (
        grade.result !== entry.result ||
        grade.unitsWon !== entry.unitsWon ||
        grade.unitsRisked !== entry.unitsRisked ||
        !sameBets
      )
        throw wrong(
          `graded ${entry.result} ${units(entry.unitsWon)} of ${entry.unitsRisked}u risked${bets ? ` (${betsText(bets)})` : ''}, but its legs as logged grade it ${grade.result} ${units(grade.unitsWon)} of ${grade.unitsRisked}u (${betsText(grade.bets)})`,
        );
    }
    const leagues = new Set(sealed.legs.map((leg) => leg.league));
    pick.league = leagues.size === 1 ? sealed.legs[0]!.league : 'Mixed';
    pick.sealed = sealed;
    pick.clvLegs = withdrawn ? null : { parlay: sealed.parlay, legs: clvLegs };
    pick.lateLegs = lateLegs.length ? lateLegs : null;
    pick.clv = null;
  }

  /**
   * Once every entry is in: each graded pick's CLV from its games' closing prices (a close may be logged
   * after a grade), and each late void against its game's logged start.
   */
  finish(): void {
    for (const pick of this.picks.values()) {
      for (const late of pick.lateLegs ?? []) {
        const outcome = this.evidence.latestOfGame(late.game);
        if (outcome && Date.parse(late.postedAt) < Date.parse(outcome.startsAt))
          throw new VerificationError(
            'grade',
            `video ${pick.videoId}: leg ${late.leg + 1} is void as posted after its game's start, but the log says the game started at ${outcome.startsAt}, after the pick was posted (${late.postedAt})`,
          );
      }
      if (!pick.clvLegs) continue;
      const legs = pick.clvLegs.legs.map((leg) => {
        const closing = leg.game && leg.key ? this.evidence.closing(leg.game) : undefined;
        return { result: leg.result, odds: leg.odds, fair: closing?.fair.get(leg.key!) ?? null };
      });
      pick.clv = pickClv(legs, pick.clvLegs.parlay);
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

/** A market leg's game is the provider's; a self-reported leg's, its league, teams (any case) and start. */
function sameGame(leg: SealedLeg, outcome: OutcomeEntry): boolean {
  if (leg.game !== undefined) return outcome.game === leg.game;
  return (
    outcome.game === null &&
    outcome.league === leg.league &&
    outcome.home.toLowerCase() === leg.home.toLowerCase() &&
    outcome.away.toLowerCase() === leg.away.toLowerCase() &&
    Date.parse(outcome.startsAt) === Date.parse(leg.startsAt)
  );
}

function describeLeg(leg: SealedLeg): string {
  const line = leg.line === null ? '' : ` ${leg.line > 0 && leg.market === 'spread' ? '+' : ''}${leg.line}`;
  return `${leg.away} at ${leg.home}, ${leg.market} ${leg.side}${line} at ${leg.odds > 0 ? '+' : ''}${leg.odds}`;
}

const units = (value: number | null | undefined) =>
  value == null ? '(none)' : `${value > 0 ? '+' : ''}${value.toFixed(2)}u`;

const betsText = (bets: LoggedBets) =>
  `${bets.win} won, ${bets.loss} lost, ${bets.push} pushed, ${bets.void} void`;
