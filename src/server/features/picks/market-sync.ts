// Keeping picks in step with the market (docs/decisions/025): every tick reads the schedule, prices and
// scores the fetch policy asks for, keeps each game's closing prices at its start and measures its legs'
// closing line value, voids legs posted after a start the feed moved earlier, and settles finished games,
// which grades every leg on them. Prices are also fetched on demand, when a capper needs them.
import type { FastifyBaseLogger } from 'fastify';
import { clvPercent, roundClv } from '#common/clv.js';
import { MAX_PRICE_AGE_SECONDS, PRICED_MARKETS } from '#common/market.js';
import { isoSeconds } from '#common/pick-seal.js';
import type { League } from '#common/schemas/picks.js';
import type { Db, Executor } from '#server/db/client.js';
import { emit } from '#server/events/index.js';
import { HttpError } from '#server/lib/http-errors.js';
import { safeErrorMessage } from '#server/lib/log-safety.js';
import {
  closeStartedGames,
  closingOf,
  gamesAwaitingScores,
  ingestOdds,
  ingestSchedule,
  leagueStates,
  LOW_CREDITS,
  marketGamesByIds,
  MarketProviderError,
  noteFetched,
  planFetches,
  prepareOdds,
  sameGameByTeams,
  sideCode,
  type GameScore,
  type MarketProvider,
  type MovedStart,
  type Quota,
  type StartedGame,
} from '../market/index.js';
import { logClosings } from './evidence.js';
import { regradePicks, settleEvent } from './grading-service.js';
import {
  followMovedStarts,
  leagueLegViews,
  marketLegsOn,
  setLegClosings,
  voidLegsPostedSince,
  type LegClosing,
  type LegOnGame,
} from './market-sync-repository.js';
import { findEvent } from './picks-repository.js';

/** How long a posting or the pick form waits for fresh prices before saying the market is not answering. */
const ON_DEMAND_TIMEOUT_MS = 10_000;
/** A league's prices are fetched on demand at most this often by one process, answered or not. */
const ON_DEMAND_MIN_SECONDS = 30;
/** Games taken per statement at a start: a full slate's starts in a few rounds. */
const CLOSING_BATCH = 500;

export interface TickSummary {
  fetched: { league: string; kind: 'schedule' | 'odds' | 'scores' }[];
  closed: number;
  settled: number;
  voided: number;
}

export class MarketUnavailableError extends HttpError {
  constructor(league: string, takenAt: Date | null) {
    super(
      503,
      takenAt
        ? `The ${league} prices are from ${isoSeconds(takenAt)}, more than ${MAX_PRICE_AGE_SECONDS / 60} minutes ago, and the market is not answering: try again in a minute.`
        : `The ${league} market is not answering yet: try again in a minute.`,
    );
  }
}

/** Where final scores come from when not from the market's provider: a free source of its own (ESPN). */
export interface ScoresSource {
  readonly name: string;
  scores(league: League, daysFrom: number): Promise<{ data: GameScore[] }>;
}

export class MarketSync {
  private readonly onDemand = new Map<string, Promise<void>>();
  private readonly lastOnDemand = new Map<string, number>();
  private readonly failures = new Map<string, { count: number; at: Date }>();
  private creditsLeft: number | null = null;
  private exhaustedUntil: Date | null = null;
  private lowWarnedAt = 0;
  private ticking: Promise<TickSummary> | null = null;

  constructor(
    private readonly db: Db,
    readonly provider: MarketProvider,
    private readonly options: { tickSeconds: number; log: FastifyBaseLogger; scores?: ScoresSource },
  ) {}

  /** The leagues whose moneyline, spread and total legs must be on a market game. */
  follows(league: string): boolean {
    return (this.provider.leagues as readonly string[]).includes(league);
  }

  /** One tick; a tick still running when the next is due is not doubled. */
  tick(now = new Date()): Promise<TickSummary> {
    if (!this.ticking)
      this.ticking = this.runTick(now).finally(() => {
        this.ticking = null;
      });
    return this.ticking;
  }

  private async runTick(now: Date): Promise<TickSummary> {
    const summary: TickSummary = { fetched: [], closed: 0, settled: 0, voided: 0 };
    const states = await leagueStates(this.db);
    const views = await legViews(this.db, now);
    const scores: { league: League; days: number }[] = [];
    for (const league of this.provider.leagues) {
      const state = states.get(league);
      const view = views.get(league);
      const failure = this.failures.get(league);
      const plan = planFetches(
        {
          scheduleAt: state?.scheduleAt ?? null,
          oddsAt: state?.oddsAt ?? null,
          scoresAt: state?.scoresAt ?? null,
          nextStartWithLegs: view?.nextStart ?? null,
          awaitingScores: view?.oldestAwaiting != null,
          failures: failure?.count ?? 0,
          failedAt: failure?.at ?? null,
        },
        now,
        {
          tickSeconds: this.options.tickSeconds,
          creditsLeft: this.creditsLeft,
          exhaustedUntil: this.exhaustedUntil,
          freeScores: this.options.scores !== undefined,
        },
      );
      if (plan.schedule && (await this.attempt(league, () => this.fetchSchedule(league, now))))
        summary.fetched.push({ league, kind: 'schedule' });
      if (plan.odds && (await this.attempt(league, () => this.fetchOdds(league, now))))
        summary.fetched.push({ league, kind: 'odds' });
      if (plan.scores) {
        const oldest = view!.oldestAwaiting!;
        scores.push({
          league,
          days: Math.min(3, Math.max(1, Math.ceil((now.getTime() - oldest.getTime()) / 86_400_000))),
        });
      }
    }
    // Closing prices before any score: a game that starts and ends between two ticks still closes first.
    summary.closed += await this.closeStarted(now);
    for (const { league, days } of scores) {
      let settled = 0;
      if (await this.attempt(league, async () => (settled = await this.fetchScores(league, days, now))))
        summary.fetched.push({ league, kind: 'scores' });
      summary.settled += settled;
    }
    summary.voided = this.voidedThisTick;
    this.voidedThisTick = 0;
    return summary;
  }

  private voidedThisTick = 0;

  /** Runs a fetch, keeping its failure count for the backoff; never throws. */
  private async attempt(league: string, fetch: () => Promise<unknown>): Promise<boolean> {
    try {
      await fetch();
      this.failures.delete(league);
      return true;
    } catch (error) {
      const count = (this.failures.get(league)?.count ?? 0) + 1;
      this.failures.set(league, { count, at: new Date() });
      if (error instanceof MarketProviderError && error.quotaExhausted) {
        this.exhaustedUntil = new Date(Date.now() + 3600_000);
        this.options.log.warn(
          { provider: this.provider.name },
          'market: the provider says its usage quota is spent; no prices or scores are fetched for an hour (the last prices stay on)',
        );
      } else {
        this.options.log.warn(
          { provider: this.provider.name, league, failures: count, problem: safeErrorMessage(error) },
          'market: a fetch failed; the last snapshot stays on',
        );
      }
      return false;
    }
  }

  private noteQuota(quota: Quota): void {
    if (quota.remaining === null) return;
    this.creditsLeft = quota.remaining;
    if (quota.remaining < LOW_CREDITS && Date.now() - this.lowWarnedAt > 3600_000) {
      this.lowWarnedAt = Date.now();
      this.options.log.warn(
        { provider: this.provider.name, creditsLeft: quota.remaining },
        'market: the provider’s quota is low; only prices for postings and slow score checks until it resets',
      );
    }
  }

  private async fetchSchedule(league: League, now: Date): Promise<void> {
    const answer = await this.provider.schedule(league);
    this.noteQuota(answer.quota);
    const { moved } = await this.db.transaction((tx) => ingestSchedule(tx, this.provider.name, answer.data));
    await noteFetched(this.db, league, 'schedule', now);
    await this.applyMovedStarts(moved, now);
  }

  private async fetchOdds(league: League, now = new Date()): Promise<{ games: number; prices: number }> {
    const started = performance.now();
    // Off the serving thread when the provider can: a full slate is megabytes of JSON.
    const answer = this.provider.prepareOdds
      ? await this.provider.prepareOdds(league)
      : prepareOdds(await this.provider.odds(league));
    this.noteQuota(answer.quota);
    // The snapshot's time is the answer's: a price is never older than it says.
    const takenAt = new Date();
    const fetched = performance.now();
    // Not one transaction: each chunk commits on its own, so other queries are served between them, and a
    // snapshot half written is still all fresh prices (each game's row is whole).
    const ingested = await ingestOdds(this.db, this.provider.name, answer, takenAt);
    await noteFetched(this.db, league, 'odds', takenAt);
    await this.applyMovedStarts(ingested.moved, now);
    this.options.log.info(
      {
        league,
        games: ingested.games,
        written: ingested.prices,
        fetchMs: Math.round(fetched - started),
        writeMs: Math.round(performance.now() - fetched),
      },
      'market: prices ingested',
    );
    return { games: ingested.games, prices: ingested.prices };
  }

  /**
   * Fresh prices for a league before a capper picks or posts in it: fetched now when the snapshot is older
   * than MAX_PRICE_AGE_SECONDS, one fetch at a time per league. Throws a 503 when the market cannot give
   * them within ON_DEMAND_TIMEOUT_MS.
   */
  async ensureFresh(league: League, now = new Date()): Promise<void> {
    const state = (await leagueStates(this.db)).get(league);
    const age = state?.oddsAt ? now.getTime() - state.oddsAt.getTime() : Infinity;
    // A little margin: the prices must still be fresh when the posting binds to them a moment later.
    if (age < (MAX_PRICE_AGE_SECONDS - 30) * 1000) return;
    let running = this.onDemand.get(league);
    if (!running) {
      const last = this.lastOnDemand.get(league) ?? 0;
      if (
        Date.now() - last < ON_DEMAND_MIN_SECONDS * 1000 ||
        (this.exhaustedUntil && now < this.exhaustedUntil)
      ) {
        if (age < MAX_PRICE_AGE_SECONDS * 1000) return;
        throw new MarketUnavailableError(league, state?.oddsAt ?? null);
      }
      this.lastOnDemand.set(league, Date.now());
      running = this.attempt(league, () => this.fetchOdds(league)).then(() => undefined);
      this.onDemand.set(league, running);
      void running.finally(() => this.onDemand.delete(league));
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), ON_DEMAND_TIMEOUT_MS);
    });
    await Promise.race([running, timeout]).finally(() => clearTimeout(timer));
    const after = (await leagueStates(this.db)).get(league);
    if (!after?.oddsAt || Date.now() - after.oddsAt.getTime() >= MAX_PRICE_AGE_SECONDS * 1000)
      throw new MarketUnavailableError(league, after?.oddsAt ?? null);
  }

  /** Scores of the last `days` days: every completed game with a score settles its event, by rule. */
  private async fetchScores(league: League, days: number, now: Date): Promise<number> {
    const source = this.options.scores;
    if (source) {
      // Another source's games are not the market's: matched to the market's games by teams and start.
      const answer = await source.scores(league, days);
      await this.closeStarted(now);
      const settled = await this.settleScores(
        await matchToMarket(this.db, this.provider.name, league, answer.data, now),
        now,
        source.name,
      );
      await noteFetched(this.db, league, 'scores', now);
      return settled;
    }
    const answer = await this.provider.scores(league, days);
    this.noteQuota(answer.quota);
    const { moved } = await this.db.transaction((tx) =>
      ingestSchedule(
        tx,
        this.provider.name,
        answer.data.map((score) => score.game),
      ),
    );
    await this.applyMovedStarts(moved, now);
    await this.closeStarted(now);
    const settled = await this.settleScores(answer.data, now, this.provider.name);
    await noteFetched(this.db, league, 'scores', now);
    return settled;
  }

  private async settleScores(scores: readonly GameScore[], now: Date, source: string): Promise<number> {
    const finals = scores.filter(
      (score) => score.completed && score.homeScore !== null && score.awayScore !== null,
    );
    if (!finals.length) return 0;
    const events = await marketGamesByIds(
      this.db,
      this.provider.name,
      finals.map((s) => s.game.id),
    );
    const byGame = new Map(events.map((event) => [event.game_id, event]));
    let settled = 0;
    for (const score of finals) {
      const event = byGame.get(score.game.id);
      if (!event) continue;
      const outcome = { status: 'final' as const, homeScore: score.homeScore!, awayScore: score.awayScore! };
      if (event.status === 'scheduled') {
        try {
          await settleEvent(this.db, event.id, outcome, { adminId: null, source }, now);
          settled += 1;
          continue;
        } catch (error) {
          // Settled meanwhile (an admin, another instance), or not started by our clock: looked at below.
          if (!(error instanceof HttpError)) throw error;
        }
      }
      const current = await findEvent(this.db, event.id);
      const same =
        current?.status === 'final' &&
        current.homeScore === outcome.homeScore &&
        current.awayScore === outcome.awayScore;
      if (current && current.status !== 'scheduled' && !same)
        this.options.log.warn(
          {
            eventId: event.id,
            source: this.provider.name,
            feed: outcome,
            current: { status: current.status, homeScore: current.homeScore, awayScore: current.awayScore },
          },
          'market: the provider’s final score differs from the recorded result; left for an admin to correct',
        );
    }
    return settled;
  }

  /**
   * Starts the feed moved: each pick's lock follows its earliest leg; where a start moved earlier, the legs
   * of picks posted or revised at or after the real start are void, whatever the score (they were sealed
   * when the game was already under way).
   */
  async applyMovedStarts(moved: readonly MovedStart[], now: Date): Promise<void> {
    if (!moved.length) return;
    const ids = moved.map((m) => m.eventId);
    const voided = await this.db.transaction(async (tx) => {
      await followMovedStarts(tx, ids);
      const earlier = moved.filter((m) => m.to < m.from);
      const late: { id: number; video_id: number }[] = [];
      for (const move of earlier) {
        const reason = `Posted at or after the game's real start (${isoSeconds(move.to)}), which the market moved from ${isoSeconds(move.from)}.`;
        late.push(...(await voidLegsPostedSince(tx, move.eventId, move.to, reason, now)));
      }
      if (late.length) {
        const videoIds = [...new Set(late.map((leg) => leg.video_id))];
        await regradePicks(tx, videoIds, now);
        await emit(tx, { type: 'picks.regraded', videoIds });
      }
      return late.length;
    });
    if (voided) {
      this.voidedThisTick += voided;
      this.options.log.info(
        { legs: voided },
        'market: legs posted after a start the feed moved earlier are void',
      );
    }
  }

  /**
   * The games that have started: their last prices kept as the closing prices, and every market leg on
   * them given its closing price, closing fair probability and CLV. Picks already graded are regraded, so
   * their CLV follows.
   */
  async closeStarted(now: Date): Promise<number> {
    let closed = 0;
    let legCount = 0;
    const started = performance.now();
    for (;;) {
      const { count, legs } = await this.db.transaction(async (tx) => {
        let legs: LegOnGame[] = [];
        let onGames = new Set<number>();
        // Each leg on a started game gets its closing price and CLV before the game's live prices go.
        const taken = await closeStartedGames(tx, now, CLOSING_BATCH, async (games) => {
          legs = await marketLegsOn(
            tx,
            games.map((game) => game.eventId),
          );
          onGames = new Set(legs.map((leg) => leg.event_id));
          await writeClosings(tx, games, legs);
          return onGames;
        });
        if (!taken.length) return { count: 0, legs: 0 };
        await logClosings(
          tx,
          taken.filter((game) => onGames.has(game.eventId)),
          now,
        );
        const graded = [...new Set(legs.filter((leg) => leg.pick_graded).map((leg) => leg.video_id))];
        if (graded.length) {
          await regradePicks(tx, graded, now);
          await emit(tx, { type: 'picks.regraded', videoIds: graded });
        }
        return { count: taken.length, legs: legs.length };
      });
      closed += count;
      legCount += legs;
      if (count < CLOSING_BATCH) break;
    }
    if (legCount)
      this.options.log.info(
        { games: closed, legs: legCount, ms: Math.round(performance.now() - started) },
        'market: closing prices kept and CLV measured',
      );
    return closed;
  }

  /**
   * Fetches what is asked of one league now, whatever the policy says (an admin's or a test's refresh), then
   * closes started games; throws what the provider throws.
   */
  async refreshNow(
    league: League,
    what: { schedule?: boolean; odds?: boolean; scoresDays?: number },
    now = new Date(),
  ): Promise<{ games: number; prices: number; closed: number; settled: number; ms: number }> {
    const started = performance.now();
    if (what.schedule) await this.fetchSchedule(league, now);
    const odds = what.odds ? await this.fetchOdds(league, now) : { games: 0, prices: 0 };
    const closed = await this.closeStarted(now);
    const settled = what.scoresDays ? await this.fetchScores(league, what.scoresDays, now) : 0;
    return { ...odds, closed, settled, ms: Math.round(performance.now() - started) };
  }

  /** One tick whose failure is logged, never thrown (the app runs it as a recurring job). */
  async tickLogged(): Promise<void> {
    await this.tick().catch((err: unknown) =>
      this.options.log.warn({ problem: safeErrorMessage(err) }, 'market: a tick failed'),
    );
  }
}

/**
 * Another source's final scores as the market's games: each matched to the market's started, unsettled game
 * of the same league by its teams (nicknames, either provider's spelling) and start within hours.
 */
async function matchToMarket(
  db: Executor,
  provider: string,
  league: League,
  scores: readonly GameScore[],
  now: Date,
): Promise<GameScore[]> {
  const events = await gamesAwaitingScores(db, provider, league, now);
  const matched: GameScore[] = [];
  for (const score of scores) {
    const event = events.find((candidate) =>
      sameGameByTeams(
        { home: candidate.home, away: candidate.away, startsAt: candidate.starts_at },
        score.game,
      ),
    );
    if (event) matched.push({ ...score, game: { ...score.game, id: event.game_id } });
  }
  return matched;
}

async function writeClosings(db: Executor, games: readonly StartedGame[], legs: readonly LegOnGame[]) {
  if (!legs.length) return;
  const byEvent = new Map(games.map((game) => [game.eventId, game]));
  const closings: LegClosing[] = [];
  for (const leg of legs) {
    const game = byEvent.get(leg.event_id)!;
    if (!(PRICED_MARKETS as readonly string[]).includes(leg.market)) continue;
    const side = sideCode(leg.market, leg.side, game);
    const closing = side
      ? closingOf(game.prices, leg.market, side, leg.market === 'moneyline' ? null : leg.line)
      : null;
    closings.push({
      id: leg.id,
      odds: closing?.odds ?? null,
      fair: closing?.fair ?? null,
      clv:
        closing?.fair != null ? roundClv(clvPercent([{ odds: leg.odds, closingFair: closing.fair }])) : null,
    });
  }
  await setLegClosings(db, [...new Set(legs.map((l) => l.event_id))], closings);
}

/** Per league: the next start of a market game with legs, and the oldest started one awaiting its score. */
async function legViews(
  db: Executor,
  now: Date,
): Promise<Map<string, { nextStart: Date | null; oldestAwaiting: Date | null }>> {
  const rows = await leagueLegViews(db, now);
  return new Map(
    rows.map((row) => [
      row.league,
      {
        nextStart: row.next_start ? new Date(row.next_start) : null,
        oldestAwaiting: row.oldest_awaiting ? new Date(row.oldest_awaiting) : null,
      },
    ]),
  );
}

// One market per database: posting (inside the uploads and videos features' transactions) finds it here.
const markets = new WeakMap<object, MarketSync>();

export function useMarket(db: Db, sync: MarketSync): void {
  markets.set(db, sync);
}

export function marketOf(db: Db): MarketSync | undefined {
  return markets.get(db);
}
