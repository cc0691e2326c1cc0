// The demo's verified picks into the database, as the product would have made them: each pick is a catalog
// video (showing one of the demo's processed preview clips) sealed by the picks feature's own postPick at its posting
// time, and each past game is settled with the grading service's rules at its final whistle, so records,
// profiles and the leaderboard have a history. Past games cannot go through the API (a leg must start in the
// future when posted), hence the database. Idempotent: a demo pick is known by its capper and title, and a
// game is settled once; a later run settles the demo's open picks whose games have since been played.
import { and, eq, inArray, sql } from '#server/db/drizzle.js';
import { NO_CLV } from '#common/clv.js';
import { gradePick, gradeScoredLeg, type LegResult } from '#common/pick-grading.js';
import { LegInputSchema, SCORED_MARKETS, type Market } from '#common/schemas/picks.js';
import { writeAudit } from '#server/db/audit-log.js';
import type { Db, Executor } from '#server/db/client.js';
import { rowsOf } from '#server/db/rows.js';
import { videos } from '#server/db/schema.js';
import { findUserByUsername } from '../auth/index.js';
import { logOutcomes, postPick, recordGrades, type PickGradeUpdate } from '../picks/index.js';
import { DEMO_CAPPERS, demoVideos, pick } from './demo-content.js';
import {
  demoPickPlan,
  FINAL_AFTER_MS,
  HAND_GRADE_AFTER_MS,
  HAND_GRADE_REASON,
  POSTPONED_BEFORE_MS,
  type DemoPick,
} from './demo-picks.js';

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

/** The planned picks not in the catalog yet: their videos in one statement, then each sealed as posted. */
async function postMissing(tx: Executor, plan: DemoPick[], cappers: Map<string, number>): Promise<number> {
  const existing = new Set(
    (
      await tx
        .select({ userId: videos.userId, title: videos.title })
        .from(videos)
        .where(
          and(
            inArray(videos.userId, [...cappers.values()]),
            inArray(videos.title, [...new Set(plan.map((p) => p.title))]),
          ),
        )
    ).map((row) => key(row.userId, row.title)),
  );
  const missing = plan.filter((p) => !existing.has(key(cappers.get(p.capper)!, p.title)));
  if (!missing.length) return 0;
  const clips = await previewClips(tx, cappers);
  const clipFor = (p: DemoPick, i: number) => {
    const league = p.legs[0]!.league;
    const sameLeague = clips.filter((clip) => clip.league === league);
    return pick(sameLeague.length ? sameLeague : clips, i);
  };
  const rows = await tx
    .insert(videos)
    .values(
      missing.map((p, i) => ({
        ...clipFor(p, i).media,
        userId: cappers.get(p.capper)!,
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
      })),
    )
    .returning({ id: videos.id, userId: videos.userId, title: videos.title });
  const byKey = new Map(missing.map((p) => [key(cappers.get(p.capper)!, p.title), p]));
  for (const row of rows) {
    const p = byKey.get(key(row.userId, row.title))!;
    const legs = p.legs.map(({ outcome: _outcome, handResult: _hand, ...leg }) => LegInputSchema.parse(leg));
    // Sealed as at its posting: `now` is the post time, so the start-in-the-future rule holds as it did then.
    await postPick(
      tx,
      { id: row.id, title: row.title },
      { id: row.userId, username: p.capper },
      // Past games have no market prices to bind to: the history is self-reported, shown and never counted.
      { legs, parlay: p.parlay, selections: p.selections, market: null },
      p.postedAt,
    );
  }
  return rows.length;
}

/**
 * The demo's processed preview clips (its unverified videos), whose files the history picks show: a past
 * pick's own clip would be one more upload to process per pick, and nobody plays last month's preview.
 */
async function previewClips(tx: Executor, cappers: Map<string, number>) {
  const byTitle = new Map(demoVideos().map((video) => [video.title, video]));
  const rows = await tx
    .select({
      title: videos.title,
      thumbnailUrl: videos.thumbnailUrl,
      videoUrl: videos.videoUrl,
      hlsUrl: videos.hlsUrl,
      duration: videos.duration,
      availableFormats: videos.availableFormats,
      isTranscoded: videos.isTranscoded,
    })
    .from(videos)
    .where(
      and(
        inArray(videos.userId, [...cappers.values()]),
        inArray(videos.title, [...byTitle.keys()]),
        eq(videos.transcodingStatus, 'ready'),
        eq(videos.isExternalVideo, false),
      ),
    )
    .orderBy(videos.id);
  if (!rows.length) throw new Error('no demo preview clip is ready: the demo clips come before the history');
  return rows.map(({ title, ...media }) => ({ league: byTitle.get(title)!.league, media }));
}

interface OpenLeg {
  id: number;
  video_id: number;
  position: number;
  market: Market;
  side: string;
  line: string | number | null;
  user_id: number;
  title: string;
  event_id: number;
  home: string;
  away: string;
  starts_at: Date | string;
}

/**
 * Settles the demo picks' games that are over and still without a result, with their planned scores,
 * exactly as settleEvent (and gradeLegByHand for props) would have at the final whistle: the event's score,
 * each leg's grade by rule, then each pick's grade from its legs, all dated in the past. Games on which
 * anyone but the demo cappers has a leg are left for an admin or the results feed.
 */
async function settlePastGames(
  tx: Executor,
  plan: DemoPick[],
  cappers: Map<string, number>,
  now: Date,
): Promise<{ settled: number; graded: number }> {
  const capperIds = [...cappers.values()];
  const legs = rowsOf<OpenLeg>(
    await tx.execute(sql`
      select l.id, l.video_id, l.position, l.market, l.side, l.line, p.user_id, p.title,
        e.id as event_id, e.home, e.away, e.starts_at
      from pick_legs l
      join picks p on p.video_id = l.video_id
      join events e on e.id = l.event_id
      where p.user_id = any(${sql.param(capperIds)}::int[]) and p.removed is null
        and e.status = 'scheduled' and e.starts_at <= ${new Date(now.getTime() - FINAL_AFTER_MS)}
        and not exists (
          select 1 from pick_legs o join picks op on op.video_id = o.video_id
          where o.event_id = e.id and op.user_id <> all(${sql.param(capperIds)}::int[]))
      order by e.starts_at, l.id`),
  );
  const planned = new Map(plan.map((p) => [key(cappers.get(p.capper)!, p.title), p]));

  const events = new Map<number, { status: string; home: number | null; away: number | null; at: Date }>();
  const legIds: number[] = [];
  const legResults: LegResult[] = [];
  const legGradedAt: string[] = [];
  const legReasons: (string | null)[] = [];
  const props: { id: number; result: LegResult }[] = [];
  for (const leg of legs) {
    const demo = planned.get(key(leg.user_id, leg.title))?.legs[leg.position];
    // A leg that is not the plan's (the pick was edited by hand) is left for an admin.
    if (!demo || demo.home !== leg.home || demo.away !== leg.away) continue;
    const start = new Date(leg.starts_at).getTime();
    const { outcome } = demo;
    const settledAt = new Date(start + (outcome.status === 'final' ? FINAL_AFTER_MS : -POSTPONED_BEFORE_MS));
    const event = events.get(leg.event_id);
    const settled = {
      status: outcome.status,
      home: outcome.status === 'final' ? outcome.homeScore : null,
      away: outcome.status === 'final' ? outcome.awayScore : null,
      at: settledAt,
    };
    if (event && JSON.stringify(event) !== JSON.stringify(settled))
      throw new Error(`two demo picks disagree on the result of event ${leg.event_id}`);
    events.set(leg.event_id, settled);
    let result: LegResult;
    let gradedAt = settledAt;
    let reason: string | null = null;
    if (outcome.status !== 'final') result = 'void';
    else if (SCORED_MARKETS.includes(leg.market))
      result = gradeScoredLeg(
        {
          market: leg.market as 'moneyline' | 'spread' | 'total',
          side: leg.side,
          line: leg.line === null ? null : Number(leg.line),
          home: leg.home,
          away: leg.away,
        },
        { home: outcome.homeScore, away: outcome.awayScore },
      );
    else {
      // A prop: graded by hand after the score, with a reason (gradeLegByHand's fields).
      result = demo.handResult!;
      gradedAt = new Date(start + HAND_GRADE_AFTER_MS);
      reason = HAND_GRADE_REASON;
      props.push({ id: leg.id, result });
    }
    legIds.push(leg.id);
    legResults.push(result);
    legGradedAt.push(gradedAt.toISOString());
    legReasons.push(reason);
  }
  if (!events.size) return { settled: 0, graded: 0 };

  const eventIds = [...events.keys()];
  const list = [...events.values()];
  // No admin settled these: the results come from the demo's own feed, as a results feed's would.
  await tx.execute(sql`
    update events set status = s.status, home_score = s.home, away_score = s.away, settled_at = s.at,
      settled_by = null, source = 'demo'
    from (
      select unnest(${sql.param(eventIds)}::int[]) as id, unnest(${sql.param(list.map((e) => e.status))}::text[]) as status,
        unnest(${sql.param(list.map((e) => e.home))}::int[]) as home, unnest(${sql.param(list.map((e) => e.away))}::int[]) as away,
        unnest(${sql.param(list.map((e) => e.at.toISOString()))}::timestamptz[]) as at
    ) as s
    where events.id = s.id and events.status = 'scheduled'`);
  await logOutcomes(tx, eventIds);
  await tx.execute(sql`
    update pick_legs set result = g.result, graded_at = g.at, grade_reason = g.reason, graded_by = null
    from (
      select unnest(${sql.param(legIds)}::int[]) as id, unnest(${sql.param(legResults)}::text[]) as result,
        unnest(${sql.param(legGradedAt)}::timestamptz[]) as at, unnest(${sql.param(legReasons)}::text[]) as reason
    ) as g
    where pick_legs.id = g.id`);
  // gradeLegByHand logs each hand grade; PickReel itself (no admin) graded these.
  for (const prop of props)
    await writeAudit(tx, {
      actorId: null,
      action: 'leg.grade',
      targetType: 'pick_leg',
      targetId: prop.id,
      before: { result: null },
      after: { result: prop.result, reason: HAND_GRADE_REASON },
    });
  const graded = await gradeDemoPicks(tx, [...new Set(legs.map((leg) => leg.video_id))]);
  return { settled: events.size, graded };
}

/**
 * Each pick's grade from its legs, as regradePicks does, dated when its last leg was graded (regradePicks
 * run at each settlement in turn would have set graded_at then). Returns how many picks are now graded.
 */
async function gradeDemoPicks(tx: Executor, videoIds: number[]): Promise<number> {
  if (!videoIds.length) return 0;
  const rows = rowsOf<{
    video_id: number;
    parlay: boolean;
    result: LegResult | null;
    odds: number;
    units: string | number;
    graded_at: Date | string | null;
  }>(
    await tx.execute(sql`
      select l.video_id, p.parlay, l.result, l.odds, l.units, l.graded_at
      from pick_legs l join picks p on p.video_id = l.video_id
      where l.video_id = any(${sql.param(videoIds)}::int[]) and p.result is null
      order by l.video_id, l.position`),
  );
  const byPick = new Map<number, { parlay: boolean; legs: typeof rows }>();
  for (const row of rows) {
    let entry = byPick.get(row.video_id);
    if (!entry) byPick.set(row.video_id, (entry = { parlay: row.parlay, legs: [] }));
    entry.legs.push(row);
  }
  const updates: PickGradeUpdate[] = [];
  for (const [videoId, entry] of byPick) {
    const grade = gradePick(
      entry.legs.map((leg) => ({ result: leg.result, odds: leg.odds, units: Number(leg.units) })),
      entry.parlay,
    );
    if (!grade) continue;
    updates.push({
      videoId,
      result: grade.result,
      unitsWon: grade.unitsWon,
      unitsRisked: grade.unitsRisked,
      bets: grade.bets,
      clv: NO_CLV,
      at: new Date(Math.max(...entry.legs.map((leg) => new Date(leg.graded_at!).getTime()))),
    });
  }
  // Through the picks feature: the grades are written and logged in the public pick log as any grade is.
  await recordGrades(tx, updates);
  return updates.length;
}
