// The demo's verified picks, put in as the product would have made them: each pick is a catalog video
// (showing one of the demo's processed preview clips) sealed by the picks feature's own postPick at its
// posting time, and each past game is settled by the grading service at its final whistle (props graded after
// it, with a reason), so records, profiles, the pick log and the leaderboard have a history. Past games cannot
// go through the API (a leg must start in the future when posted), hence the features' services in one
// transaction. Idempotent: a demo pick is known by its capper and title, and a game is settled once; a later
// run settles the demo's open picks whose games have since been played.
import { sql } from '#server/db/drizzle.js';
import { LegInputSchema, SCORED_MARKETS } from '#common/schemas/picks.js';
import type { Db, Executor } from '#server/db/client.js';
import { findUserByUsername } from '#server/features/auth/index.js';
import { postPick, recordPastResults, type PastResult } from '#server/features/picks/index.js';
import { createVideo } from '#server/features/videos/index.js';
import { DEMO_CAPPERS, demoVideos, pick } from './demo-content.js';
import {
  demoPickPlan,
  FINAL_AFTER_MS,
  HAND_GRADE_AFTER_MS,
  HAND_GRADE_REASON,
  POSTPONED_BEFORE_MS,
  type DemoPick,
} from './demo-picks.js';
import { demoPickKeys, openPicksAmong, openLegsOnPastGames, readyClips } from './demo-repository.js';

export interface DemoPicksResult {
  /** Demo picks this run posted, games it settled and picks it graded. */
  posted: number;
  settled: number;
  graded: number;
}

/** Adds the demo cappers' picks and grades the past ones (see the top of this file). */
export async function seedDemoPicks(
  db: Db,
  options: { log: (line: string) => void; now?: Date },
): Promise<DemoPicksResult> {
  const started = performance.now();
  const now = options.now ?? new Date();
  const cappers = new Map<string, number>();
  for (const { username } of DEMO_CAPPERS) {
    const user = await findUserByUsername(db, username);
    if (!user) throw new Error(`the demo capper ${username} is missing: the demo accounts come first`);
    cappers.set(username, user.id);
  }
  const plan = demoPickPlan(now);
  const result = await db.transaction(async (tx) => {
    // One seed at a time (a start with SEED_DEMO beside `npm run seed:demo` on one PostgreSQL).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('pickreel demo picks'))`);
    const posted = await postMissing(tx, plan, cappers);
    const { settled, graded } = await settlePastGames(tx, plan, cappers, now);
    return { posted, settled, graded };
  });
  options.log(
    result.posted || result.settled
      ? `Demo picks: ${result.posted} posted, ${result.settled} games settled, ${result.graded} picks graded ` +
          `in ${((performance.now() - started) / 1000).toFixed(1)} s.`
      : 'Demo picks: all in place already.',
  );
  return result;
}

const key = (userId: number, title: string) => `${userId}|${title}`;

/** The planned picks not in the catalog yet: each a video through the videos feature, sealed as posted. */
async function postMissing(tx: Executor, plan: DemoPick[], cappers: Map<string, number>): Promise<number> {
  const existing = new Set(
    (await demoPickKeys(tx, [...cappers.values()], [...new Set(plan.map((p) => p.title))])).map((row) =>
      key(row.userId, row.title),
    ),
  );
  const missing = plan.filter((p) => !existing.has(key(cappers.get(p.capper)!, p.title)));
  if (!missing.length) return 0;
  const clips = await previewClips(tx, cappers);
  const clipFor = (p: DemoPick, i: number) => {
    const league = p.legs[0]!.league;
    const sameLeague = clips.filter((clip) => clip.league === league);
    return pick(sameLeague.length ? sameLeague : clips, i);
  };
  for (const [i, p] of missing.entries()) {
    const userId = cappers.get(p.capper)!;
    const video = await createVideo(tx, {
      ...clipFor(p, i).media,
      userId,
      title: p.title,
      description: p.description,
      emailInformation: p.selections,
      priceCents: p.priceCents,
      category: p.category,
      isPremium: true,
      isExternalVideo: false,
      transcodingStatus: 'ready',
      transcodingProgress: 100,
      views: p.views,
      createdAt: p.postedAt,
    });
    const legs = p.legs.map(({ outcome: _outcome, handResult: _hand, ...leg }) => LegInputSchema.parse(leg));
    // Sealed as at its posting: `now` is the post time, so the start-in-the-future rule holds as it did then.
    await postPick(
      tx,
      { id: video.id, title: video.title },
      { id: userId, username: p.capper },
      // Past games have no market prices to bind to: the history is self-reported, shown and never counted.
      { legs, parlay: p.parlay, selections: p.selections, market: null },
      p.postedAt,
    );
  }
  return missing.length;
}

/**
 * The demo's processed preview clips (its unverified videos), whose files the history picks show: a past
 * pick's own clip would be one more upload to process per pick, and nobody plays last month's preview.
 */
async function previewClips(tx: Executor, cappers: Map<string, number>) {
  const byTitle = new Map(demoVideos().map((video) => [video.title, video]));
  const rows = await readyClips(tx, [...cappers.values()], [...byTitle.keys()]);
  if (!rows.length) throw new Error('no demo preview clip is ready: the demo clips come before the history');
  return rows.map(({ title, ...media }) => ({ league: byTitle.get(title)!.league, media }));
}

/**
 * Settles the demo picks' games that are over and still without a result, with their planned scores, through
 * the grading service at the time each result would have come: the event's score at its final whistle (or
 * its postponement before the start), a prop's grade by hand some hours after. Games on which anyone but the
 * demo cappers has a leg are left for an admin or the results feed.
 */
async function settlePastGames(
  tx: Executor,
  plan: DemoPick[],
  cappers: Map<string, number>,
  now: Date,
): Promise<{ settled: number; graded: number }> {
  const legs = await openLegsOnPastGames(tx, [...cappers.values()], new Date(now.getTime() - FINAL_AFTER_MS));
  const planned = new Map(plan.map((p) => [key(cappers.get(p.capper)!, p.title), p]));

  const events = new Map<number, Extract<PastResult, { event: number }>>();
  const props: PastResult[] = [];
  for (const leg of legs) {
    const demo = planned.get(key(leg.userId, leg.title))?.legs[leg.position];
    // A leg that is not the plan's (the pick was edited by hand) is left for an admin.
    if (!demo || demo.home !== leg.home || demo.away !== leg.away) continue;
    const start = new Date(leg.startsAt).getTime();
    const { outcome } = demo;
    const settled = {
      event: leg.eventId,
      outcome,
      at: new Date(start + (outcome.status === 'final' ? FINAL_AFTER_MS : -POSTPONED_BEFORE_MS)),
    };
    const event = events.get(leg.eventId);
    if (event && JSON.stringify(event) !== JSON.stringify(settled))
      throw new Error(`two demo picks disagree on the result of event ${leg.eventId}`);
    events.set(leg.eventId, settled);
    // A prop is graded by hand after the score; the score grades the rest, and voids all on a postponed game.
    if (outcome.status === 'final' && !SCORED_MARKETS.includes(leg.market))
      props.push({
        leg: leg.id,
        result: demo.handResult!,
        reason: HAND_GRADE_REASON,
        at: new Date(start + HAND_GRADE_AFTER_MS),
      });
  }
  if (!events.size) return { settled: 0, graded: 0 };

  const videoIds = [...new Set(legs.map((leg) => leg.videoId))];
  const openBefore = await openPicksAmong(tx, videoIds);
  // The results come from the demo's own feed, as a results feed's would: no admin settled these.
  await recordPastResults(tx, [...events.values(), ...props], 'demo');
  return { settled: events.size, graded: openBefore - (await openPicksAmong(tx, videoIds)) };
}
