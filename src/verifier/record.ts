// A capper's record recomputed from the log alone, and compared with what the site's profile
// claims. Written here on purpose, not shared with the server: a verifier that reused the server's
// arithmetic would agree with its mistakes.
import type { PickHistory } from './pick-history.js';
import { VerificationError } from './verification-error.js';

/** Counts are bets (each leg of a straight pick, a parlay as one), as the site counts them. */
export interface CapperRecord {
  wins: number;
  losses: number;
  pushes: number;
  voids: number;
  graded: number;
  /** The graded picks the bets came in. */
  picks: number;
  /** Summed, then rounded to 2 decimals. */
  unitsWon: number;
  unitsRisked: number;
  /** unitsWon ÷ unitsRisked × 100, one decimal; null when nothing was risked. */
  roi: number | null;
  /** wins ÷ (wins + losses) × 100, one decimal; null before the first win or loss. */
  winPct: number | null;
  /** The bets' closing line value: average percent (two decimals), share that beat the close; null before one. */
  clv: { bets: number; average: number; beatPct: number } | null;
}

/** The profile's claim: `records.all` and `gradedTotal` of GET /api/cappers/{username}. */
export interface ProfileClaim {
  username: string;
  record: CapperRecord;
  gradedTotal: number;
}

/**
 * Usernames are case-insensitive on the site (stored as typed, compared NFKC and case folded), so the log
 * may spell the capper as typed while the command line spells it otherwise.
 */
export function sameUsername(a: string, b: string): boolean {
  const key = (name: string) => name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
  return key(a) === key(b);
}

/**
 * Each of the capper's picks counts by its latest graded entry with a result, unless moderation removed it
 * (a capper's own removal keeps the grade on the record: deleting a loser must not hide it), or the entry
 * does not say the pick is bound to the market (`selfReported: false`): a self-reported pick, or one
 * graded before picks were bound to the market, never counts (docs/pick-log.md).
 */
export function countedPicks(picks: Iterable<PickHistory>, username?: string): PickHistory[] {
  const counted: PickHistory[] = [];
  for (const pick of picks) {
    if (username !== undefined && !sameUsername(pick.capper, username)) continue;
    if (pick.grade?.result == null || pick.removedByModeration) continue;
    if (pick.grade.selfReported !== false) continue;
    // A counted grade must be provable: its entry carries the revealed pick and what each leg rests on.
    if (!pick.grade.regraded)
      throw new VerificationError(
        'grade',
        `entry ${pick.grade.index} (video ${pick.videoId}) counts on ${pick.capper}'s record, but does not carry the revealed pick and outcomes to regrade it`,
      );
    counted.push(pick);
  }
  return counted;
}

export function recordOf(picks: readonly PickHistory[]): CapperRecord {
  let wins = 0;
  let losses = 0;
  let pushes = 0;
  let voids = 0;
  let won = 0;
  let risked = 0;
  let count = 0;
  let clvBets = 0;
  let clvSum = 0;
  let clvBeat = 0;
  for (const { grade, videoId, clv } of picks) {
    if (!grade?.result) continue;
    if (grade.unitsWon === null || grade.unitsRisked === null || grade.bets === null)
      throw new VerificationError(
        'entry',
        `entry ${grade.index} (video ${videoId}): graded ${grade.result} without unitsWon, unitsRisked and bets, so the record cannot be recomputed`,
      );
    wins += grade.bets.win;
    losses += grade.bets.loss;
    pushes += grade.bets.push;
    voids += grade.bets.void;
    won += grade.unitsWon;
    risked += grade.unitsRisked;
    count++;
    if (clv) {
      clvBets += clv.bets;
      clvSum += clv.sum;
      clvBeat += clv.beat;
    }
  }
  const unitsWon = round(won, 2);
  const unitsRisked = round(risked, 2);
  return {
    wins,
    losses,
    pushes,
    voids,
    graded: wins + losses + pushes + voids,
    picks: count,
    unitsWon,
    unitsRisked,
    // From the rounded sums, as a reader would from the units printed beside it.
    roi: unitsRisked === 0 ? null : round((unitsWon / unitsRisked) * 100, 1),
    winPct: wins + losses === 0 ? null : round((wins / (wins + losses)) * 100, 1),
    clv: clvBets === 0 ? null : clvFigures(clvBets, clvSum, clvBeat),
  };
}

/** A record's CLV from its bets' exact sum (in ten-thousandths of a percent): average and share beating it. */
export function clvFigures(
  bets: number,
  sum: number,
  beat: number,
): { bets: number; average: number; beatPct: number } {
  return { bets, average: round(sum / 10_000 / bets, 2), beatPct: round((beat / bets) * 100, 1) };
}

/**
 * Half away from zero, never -0. Scaled through the decimal text rather than by multiplying, so 1.005
 * (stored as 1.00499…) rounds to 1.01 as a person would round the number printed.
 */
export function round(value: number, decimals: number): number {
  // Already a number of `decimals` places (most figures are): the text's way gives it back as it is.
  const scale = 10 ** decimals;
  const whole = Math.round(value * scale);
  if (Math.abs(whole) < 1e15 && whole / scale === value) return value === 0 ? 0 : value;
  const [mantissa, exponent = '0'] = Math.abs(value).toPrecision(15).split('e');
  const scaled = Number(`${mantissa}e${Number(exponent) + decimals}`);
  const rounded = (Math.sign(value) * Math.round(scaled)) / 10 ** decimals;
  return rounded === 0 ? 0 : rounded;
}

/** Each figure the profile states differently from the log, as a sentence; empty when they agree. */
export function recordDifferences(log: CapperRecord, claim: ProfileClaim): string[] {
  const { record } = claim;
  const differences: string[] = [];
  const count = (claimed: number, logged: number, one: string, many: string, verb = 'claims') => {
    if (claimed !== logged)
      differences.push(
        `the profile ${verb} ${counted(claimed, one, many)}, the log has ${logged.toLocaleString('en-US')}`,
      );
  };
  count(record.graded, log.graded, 'graded bet', 'graded bets');
  count(record.picks, log.picks, 'graded pick', 'graded picks');
  count(claim.gradedTotal, log.picks, 'graded pick', 'graded picks', 'lists');
  count(record.wins, log.wins, 'win', 'wins');
  count(record.losses, log.losses, 'loss', 'losses');
  count(record.pushes, log.pushes, 'push', 'pushes');
  count(record.voids, log.voids, 'void', 'voids');
  const figure = (
    claimed: number | null,
    logged: number | null,
    decimals: number,
    claim: (text: string) => string,
    unit: string,
  ) => {
    const a = claimed === null ? null : round(claimed, decimals);
    const b = logged === null ? null : round(logged, decimals);
    const shown = (value: number | null) => (value === null ? 'none' : `${value.toFixed(decimals)}${unit}`);
    if (a !== b) differences.push(`the profile claims ${claim(shown(a))}, the log has ${shown(b)}`);
  };
  figure(record.unitsWon, log.unitsWon, 2, (text) => `${text} won`, 'u');
  figure(record.unitsRisked, log.unitsRisked, 2, (text) => `${text} risked`, 'u');
  figure(record.roi, log.roi, 1, (text) => `an ROI of ${text}`, '%');
  figure(record.winPct, log.winPct, 1, (text) => `a win rate of ${text}`, '%');
  if ((record.clv?.bets ?? 0) !== (log.clv?.bets ?? 0))
    differences.push(
      `the profile claims CLV on ${counted(record.clv?.bets ?? 0, 'bet', 'bets')}, the log has ${(log.clv?.bets ?? 0).toLocaleString('en-US')}`,
    );
  figure(
    record.clv?.average ?? null,
    log.clv?.average ?? null,
    2,
    (text) => `an average CLV of ${text}`,
    '%',
  );
  figure(
    record.clv?.beatPct ?? null,
    log.clv?.beatPct ?? null,
    1,
    (text) => `${text} of bets beat the close`,
    '%',
  );
  return differences;
}

/** '1 entry', '1,234 entries'. */
export function counted(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** '24-13-2' (wins-losses-pushes), then the voids when there are some: '24-13-2, 1 void'. */
export function formatWinLoss(record: CapperRecord): string {
  const base = `${record.wins}-${record.losses}-${record.pushes}`;
  return record.voids ? `${base}, ${counted(record.voids, 'void', 'voids')}` : base;
}

export function formatUnits(units: number): string {
  const rounded = round(units, 1);
  return `${rounded > 0 ? '+' : rounded < 0 ? '-' : ''}${Math.abs(rounded).toFixed(1)}u`;
}

const clvText = (value: number | null) =>
  value === null ? '—' : `${value > 0 ? '+' : ''}${round(value, 2).toFixed(2)}%`;

export function formatPercent(value: number | null): string {
  return value === null ? '—' : `${value.toFixed(1)}%`;
}

/** The log's record beside the profile's, one figure a row, marked where they differ. */
export function recordTable(username: string, log: CapperRecord, claim: ProfileClaim): string {
  const { record } = claim;
  const units = (value: number) => `${value > 0 ? '+' : ''}${round(value, 2).toFixed(2)}`;
  const percent = (value: number | null) => formatPercent(value === null ? null : round(value, 1));
  const rows: [name: string, logged: string, claimed: string][] = [
    ['wins', String(log.wins), String(record.wins)],
    ['losses', String(log.losses), String(record.losses)],
    ['pushes', String(log.pushes), String(record.pushes)],
    ['voids', String(log.voids), String(record.voids)],
    ['bets', String(log.graded), String(record.graded)],
    ['picks', String(log.picks), String(record.picks)],
    ['picks, listed', String(log.picks), String(claim.gradedTotal)],
    ['units won', units(log.unitsWon), units(record.unitsWon)],
    ['units risked', round(log.unitsRisked, 2).toFixed(2), round(record.unitsRisked, 2).toFixed(2)],
    ['ROI', percent(log.roi), percent(record.roi)],
    ['win %', percent(log.winPct), percent(record.winPct)],
    ['CLV', clvText(log.clv?.average ?? null), clvText(record.clv?.average ?? null)],
    ['beat the close', percent(log.clv?.beatPct ?? null), percent(record.clv?.beatPct ?? null)],
  ];
  const header: [string, string, string] = [username, 'log', 'profile'];
  const all = [header, ...rows];
  const width = (column: 0 | 1 | 2) => Math.max(...all.map((row) => row[column].length));
  const line = ([name, logged, claimed]: [string, string, string], mark: string) =>
    `${name.padEnd(width(0))}  ${logged.padStart(width(1))}  ${claimed.padStart(width(2))}${mark}`.trimEnd();
  return [line(header, ''), ...rows.map((row) => line(row, row[1] === row[2] ? '' : '  ✗'))].join('\n');
}
