// Every record figure the site serves, recomputed from the log (docs/pick-log.md 'What the verifier checks'):
// each capper's profile (its periods, leagues, chart and graded picks), every leaderboard the site offers
// (period × league × sort, every page) and the record badges on cards. The first difference is the one line
// the verifier prints.
import type { SealedLeg } from '../common/pick-seal.js';
import type { SiteClient } from './http.js';
import type { PickHistory } from './pick-history.js';
import { clvFigures, counted, recordOf, round, type CapperRecord } from './record.js';
import { VerificationError } from './verification-error.js';

const DAY_MS = 24 * 3600_000;
/** The site's own minimum (decided bets) for a capper to be ranked; read from each answer, this is the fallback. */
const MIN_DECIDED = 20;
const PROFILE_PAGE = 100;
const LEADERBOARD_PAGE = 100;
const BADGE_NAMES = 60;
const PERIODS = ['30', '90', 'all'] as const;
const SORTS = ['units', 'roi', 'clv'] as const;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface ServedFiguresResult {
  cappers: number;
  leaderboards: number;
  pages: number;
}

/**
 * Checks what the site serves against `picks` (the log's, regraded). `cappers` are the usernames whose
 * profiles and badges are checked (every capper in the log).
 */
export async function checkServedFigures(
  client: SiteClient,
  picks: readonly PickHistory[],
  counted: readonly PickHistory[],
  options: { concurrency?: number } = {},
): Promise<ServedFiguresResult> {
  const byCapper = new Map<string, { name: string; picks: PickHistory[] }>();
  for (const pick of picks) {
    const key = pick.capper.toLowerCase();
    if (!byCapper.has(key)) byCapper.set(key, { name: pick.capper, picks: [] });
  }
  for (const pick of counted) byCapper.get(pick.capper.toLowerCase())!.picks.push(pick);
  const cappers = [...byCapper.values()];
  const limit = Math.max(1, options.concurrency ?? 4);
  let pages = 0;

  await pool(cappers, limit, async (capper) => {
    pages += await checkProfile(client, capper.name, capper.picks);
  });
  pages += await checkBadges(client, cappers);

  const variants = await leaderboardVariants(client, counted);
  await pool(variants, limit, async (variant) => {
    pages += await checkLeaderboard(client, variant, counted);
  });
  return { cappers: cappers.length, leaderboards: variants.length, pages };
}

const figuresDiffer = (what: string, logged: CapperRecord, served: unknown): string | null => {
  if (!isObject(served)) return `${what}: not a record`;
  const differences: string[] = [];
  const counts = ['wins', 'losses', 'pushes', 'voids', 'graded', 'picks'] as const;
  for (const name of counts)
    if (served[name] !== logged[name])
      differences.push(`${name} ${String(served[name])}, the log has ${logged[name]}`);
  const same = (a: unknown, b: number | null, decimals: number) =>
    b === null ? a === null : typeof a === 'number' && round(a, decimals) === round(b, decimals);
  const figure = (name: string, a: unknown, b: number | null, decimals: number, unit: string) => {
    if (!same(a, b, decimals))
      differences.push(
        `${name} ${a === null ? 'none' : String(a)}${unit}, the log has ${b === null ? 'none' : b.toFixed(decimals)}${unit}`,
      );
  };
  figure('units won', served.unitsWon, logged.unitsWon, 2, 'u');
  figure('units risked', served.unitsRisked, logged.unitsRisked, 2, 'u');
  figure('ROI', served.roi, logged.roi, 1, '%');
  figure('win rate', served.winPct, logged.winPct, 1, '%');
  const clv = isObject(served.clv) ? served.clv : null;
  if ((clv?.bets ?? 0) !== (logged.clv?.bets ?? 0))
    differences.push(`CLV on ${String(clv?.bets ?? 0)} bets, the log has ${logged.clv?.bets ?? 0}`);
  else if (clv && logged.clv) {
    figure('average CLV', clv.average, logged.clv.average, 2, '%');
    figure('share beating the close', clv.beatPct, logged.clv.beatPct, 1, '%');
  }
  return differences.length ? `${what} says ${differences.join('; ')}` : null;
};

function fail(message: string): never {
  throw new VerificationError('record', message);
}

// A pick's grading time, parsed once by the history (a test's hand-made pick may leave it out).
const gradedTime = (pick: PickHistory): number => pick.gradedTime ?? Date.parse(pick.gradedAt!);

const within = (picks: readonly PickHistory[], asOf: number, days: number | null) =>
  days === null ? picks : picks.filter((pick) => gradedTime(pick) >= asOf - days * DAY_MS);

function readAsOf(answer: Json, path: string): number {
  const asOf = typeof answer.asOf === 'string' ? Date.parse(answer.asOf) : NaN;
  if (Number.isNaN(asOf)) fail(`GET ${path} does not say when its figures were read (asOf)`);
  return asOf;
}

/** In grading order, as the site's chart and periods run. */
const byGrading = (a: PickHistory, b: PickHistory) => gradedTime(a) - gradedTime(b) || a.videoId - b.videoId;

async function checkProfile(client: SiteClient, username: string, picks: PickHistory[]): Promise<number> {
  const ordered = [...picks].sort(byGrading);
  const base = `/api/cappers/${encodeURIComponent(username)}`;
  let requests = 0;
  const newestFirst = [...ordered].reverse();
  for (let offset = 0; ; offset += PROFILE_PAGE) {
    const path = `${base}?limit=${PROFILE_PAGE}&offset=${offset}`;
    const response = await client.get(path);
    requests++;
    // A capper whose account is gone has no profile: fine while none of their picks counts.
    if (response.status === 404 && offset === 0 && !ordered.length) return requests;
    if (!response.ok) throw await client.failure(path, response);
    let answer: unknown;
    try {
      answer = await response.json();
    } catch {
      fail(`GET ${path} did not answer JSON`);
    }
    if (!isObject(answer) || !isObject(answer.records) || !Array.isArray(answer.graded))
      fail(`GET ${path} did not answer a capper profile`);
    const who = `${username}'s profile`;
    if (offset === 0) {
      const asOf = readAsOf(answer, path);
      const periods: [string, number | null][] = [
        ['last30', 30],
        ['last90', 90],
        ['all', null],
      ];
      for (const [name, days] of periods) {
        const problem = figuresDiffer(
          `${who} (${name === 'all' ? 'all time' : `last ${days} days`})`,
          recordOf(within(ordered, asOf, days)),
          answer.records[name],
        );
        if (problem) fail(problem);
      }
      if (answer.gradedTotal !== ordered.length)
        fail(`${who} lists ${String(answer.gradedTotal)} graded picks, the log has ${ordered.length}`);
      checkLeagues(who, answer.byLeague, ordered);
      checkChart(who, answer.chart, ordered);
    }
    const page = newestFirst.slice(offset, offset + PROFILE_PAGE);
    if (answer.graded.length !== page.length)
      fail(
        `${who} (offset ${offset}) lists ${answer.graded.length} graded picks, the log has ${page.length}`,
      );
    for (const [i, served] of (answer.graded as unknown[]).entries()) checkGradedPick(who, served, page[i]!);
    if (offset + PROFILE_PAGE >= newestFirst.length) break;
  }
  return requests;
}

function checkLeagues(who: string, served: unknown, picks: readonly PickHistory[]): void {
  const leagues = new Map<string, PickHistory[]>();
  for (const pick of picks) {
    const list = leagues.get(pick.league!) ?? [];
    list.push(pick);
    leagues.set(pick.league!, list);
  }
  if (!Array.isArray(served)) fail(`${who} has no records by league`);
  const servedLeagues = new Set<string>();
  for (const row of served as unknown[]) {
    if (!isObject(row) || typeof row.league !== 'string') fail(`${who} has a malformed league record`);
    servedLeagues.add(row.league);
    const logged = leagues.get(row.league);
    if (!logged) fail(`${who} shows a ${row.league} record, but the log has no counted ${row.league} pick`);
    const problem = figuresDiffer(`${who} (${row.league})`, recordOf(logged), row.record);
    if (problem) fail(problem);
  }
  for (const league of leagues.keys())
    if (!servedLeagues.has(league))
      fail(`${who} shows no ${league} record, but the log has counted ${league} picks`);
}

function checkChart(who: string, served: unknown, picks: readonly PickHistory[]): void {
  if (!Array.isArray(served) || served.length !== picks.length)
    fail(
      `${who}'s chart has ${Array.isArray(served) ? served.length : 'no'} points, the log has ${picks.length} graded picks`,
    );
  let cents = 0;
  for (const [i, pick] of picks.entries()) {
    cents += Math.round(pick.grade!.unitsWon! * 100);
    const point: unknown = served[i];
    if (!isObject(point)) fail(`${who}'s chart point ${i + 1} is malformed`);
    if (typeof point.at !== 'string' || Date.parse(point.at) !== gradedTime(pick))
      fail(
        `${who}'s chart point ${i + 1} is dated ${String(point.at)}, the log grades that pick at ${pick.gradedAt}`,
      );
    if (point.units !== cents / 100)
      fail(
        `${who}'s chart reaches ${String(point.units)}u at point ${i + 1}, the log's units reach ${(cents / 100).toFixed(2)}u`,
      );
  }
}

function checkGradedPick(who: string, served: unknown, pick: PickHistory): void {
  if (!isObject(served)) fail(`${who} lists a malformed graded pick`);
  const what = `${who} lists video ${String(served.videoId)}`;
  if (served.videoId !== pick.videoId)
    fail(`${what} where the log's newest-graded order has video ${pick.videoId}`);
  if (served.result !== pick.grade!.result)
    fail(`${what} as a ${String(served.result)}, the log grades it ${pick.grade!.result}`);
  if (typeof served.unitsWon !== 'number' || round(served.unitsWon, 2) !== pick.grade!.unitsWon)
    fail(`${what} at ${String(served.unitsWon)}u, the log has ${pick.grade!.unitsWon}u`);
  if (served.commitment !== pick.commitment)
    fail(`${what} with commitment ${String(served.commitment)}, the log has ${pick.commitment}`);
  if (!sameLegs(served.legs, pick.sealed!.legs))
    fail(`${what} with legs other than the ones it sealed (the log's revealed pick)`);
  const average =
    pick.clv && pick.clv.bets ? clvFigures(pick.clv.bets, pick.clv.sum, pick.clv.beat).average : null;
  if (
    average === null
      ? served.clv !== null
      : typeof served.clv !== 'number' || round(served.clv, 2) !== average
  )
    fail(`${what} with a CLV of ${String(served.clv)}%, the log's closing prices give ${average ?? 'none'}`);
}

const LEG_FIELDS = ['league', 'home', 'away', 'startsAt', 'market', 'side', 'line', 'odds', 'units'] as const;

function sameLegs(served: unknown, sealed: readonly SealedLeg[]): boolean {
  if (!Array.isArray(served) || served.length !== sealed.length) return false;
  return sealed.every((leg, i) => {
    const other: unknown = served[i];
    if (!isObject(other)) return false;
    return LEG_FIELDS.every((field) => other[field] === leg[field]);
  });
}

async function checkBadges(
  client: SiteClient,
  cappers: readonly { name: string; picks: PickHistory[] }[],
): Promise<number> {
  let requests = 0;
  for (let i = 0; i < cappers.length; i += BADGE_NAMES) {
    const batch = cappers.slice(i, i + BADGE_NAMES);
    const path = `/api/records?usernames=${batch.map((c) => encodeURIComponent(c.name)).join(',')}`;
    const answer = await client.json(path);
    requests++;
    if (!isObject(answer)) fail(`GET ${path} did not answer records by username`);
    const served = new Map(Object.entries(answer).map(([name, record]) => [name.toLowerCase(), record]));
    for (const capper of batch) {
      const record = served.get(capper.name.toLowerCase());
      // A capper the site no longer has (an account deleted) has no badge to check.
      if (record === undefined) {
        if (capper.picks.length)
          fail(`the site serves no record badge for ${capper.name}, who has counted picks in the log`);
        continue;
      }
      const problem = figuresDiffer(`${capper.name}'s record badge`, recordOf(capper.picks), record);
      if (problem) fail(problem);
    }
  }
  return requests;
}

interface Variant {
  period: (typeof PERIODS)[number];
  league: string | null;
  sort: (typeof SORTS)[number];
}

/** Every leaderboard the site offers: its own list of leagues (from its API description), or the log's. */
async function leaderboardVariants(client: SiteClient, picks: readonly PickHistory[]): Promise<Variant[]> {
  const leagues = new Set(picks.map((pick) => pick.league!).filter((league) => league !== 'Mixed'));
  try {
    const document = await client.json('/api/openapi.json');
    const parameters = (document as { paths?: Record<string, { get?: { parameters?: unknown[] } }> }).paths?.[
      '/api/leaderboard'
    ]?.get?.parameters;
    for (const parameter of parameters ?? []) {
      const p = parameter as { name?: string; schema?: { enum?: unknown[] } };
      if (p.name === 'league')
        for (const league of p.schema?.enum ?? []) if (typeof league === 'string') leagues.add(league);
    }
  } catch {
    // No API description: the leagues the log has picks in are what the leaderboards can show.
  }
  const variants: Variant[] = [];
  for (const period of PERIODS)
    for (const league of [null, ...[...leagues].sort()])
      for (const sort of SORTS) variants.push({ period, league, sort });
  return variants;
}

interface Ranked {
  username: string;
  record: CapperRecord;
  units: number;
  roi: number | null;
  clv: number | null;
  decided: number;
}

async function checkLeaderboard(
  client: SiteClient,
  variant: Variant,
  picks: readonly PickHistory[],
): Promise<number> {
  const query = `period=${variant.period}${variant.league ? `&league=${encodeURIComponent(variant.league)}` : ''}&sort=${variant.sort}`;
  const name = `the leaderboard (${variant.period === 'all' ? 'all time' : `${variant.period} days`}, ${variant.league ?? 'all leagues'}, by ${variant.sort})`;
  let expected: Ranked[] | null = null;
  let requests = 0;
  for (let offset = 0; ; offset += LEADERBOARD_PAGE) {
    const path = `/api/leaderboard?${query}&limit=${LEADERBOARD_PAGE}&offset=${offset}`;
    const answer = await client.json(path);
    requests++;
    if (!isObject(answer) || !Array.isArray(answer.entries)) fail(`GET ${path} did not answer a leaderboard`);
    if (!expected) {
      const asOf = readAsOf(answer, path);
      const minimum = Number.isSafeInteger(answer.minPicks) ? (answer.minPicks as number) : MIN_DECIDED;
      expected = ranking(picks, variant, asOf, minimum);
      if (answer.total !== expected.length)
        fail(
          `${name} ranks ${String(answer.total)} cappers, the log ranks ${counted(expected.length, 'capper', 'cappers')}`,
        );
    }
    const page = expected.slice(offset, offset + LEADERBOARD_PAGE);
    if (answer.entries.length !== page.length)
      fail(
        `${name} (offset ${offset}) lists ${answer.entries.length} cappers, the log ranks ${page.length} there`,
      );
    for (const [i, entry] of (answer.entries as unknown[]).entries()) {
      const want = page[i]!;
      const rank = offset + i + 1;
      if (!isObject(entry) || typeof entry.username !== 'string')
        fail(`${name} has a malformed entry at rank ${rank}`);
      if (entry.username.toLowerCase() !== want.username.toLowerCase())
        fail(`${name} ranks ${entry.username} at ${rank}, the log ranks ${want.username} there`);
      if (entry.rank !== rank)
        fail(`${name} numbers ${entry.username} ${String(entry.rank)}, at place ${rank}`);
      const problem = figuresDiffer(`${name} at rank ${rank} (${entry.username})`, want.record, entry.record);
      if (problem) fail(problem);
    }
    if (offset + LEADERBOARD_PAGE >= expected.length) break;
  }
  return requests;
}

/** The site's published ranking: enough decided bets, then units (or ROI, or CLV), decided bets, name. */
function ranking(picks: readonly PickHistory[], variant: Variant, asOf: number, minimum: number): Ranked[] {
  const days = variant.period === 'all' ? null : Number(variant.period);
  const byCapper = new Map<string, { name: string; picks: PickHistory[] }>();
  for (const pick of within(picks, asOf, days)) {
    if (variant.league && pick.league !== variant.league) continue;
    const key = pick.capper.toLowerCase();
    if (!byCapper.has(key)) byCapper.set(key, { name: pick.capper, picks: [] });
    byCapper.get(key)!.picks.push(pick);
  }
  const ranked: Ranked[] = [];
  for (const { name, picks: own } of byCapper.values()) {
    const record = recordOf(own);
    if (record.wins + record.losses < minimum) continue;
    let clvSum = 0;
    let clvBets = 0;
    for (const pick of own)
      if (pick.clv) {
        clvSum += pick.clv.sum;
        clvBets += pick.clv.bets;
      }
    ranked.push({
      username: name,
      record,
      units: record.unitsWon,
      roi: record.unitsRisked > 0 ? record.unitsWon / record.unitsRisked : null,
      clv: clvBets > 0 ? clvSum / 10_000 / clvBets : null,
      decided: record.wins + record.losses,
    });
  }
  const desc = (a: number | null, b: number | null) => (b ?? -Infinity) - (a ?? -Infinity);
  return ranked.sort(
    (a, b) =>
      (variant.sort === 'roi'
        ? desc(a.roi, b.roi) || b.units - a.units
        : variant.sort === 'clv'
          ? desc(a.clv, b.clv) || b.units - a.units
          : b.units - a.units || desc(a.roi, b.roi)) ||
      b.decided - a.decided ||
      (a.username < b.username ? -1 : a.username > b.username ? 1 : 0),
  );
}

async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
