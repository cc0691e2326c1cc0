// The admin's Results tab ('Graded by the scoreboard'): events waiting for a score, settling and
// correcting them, props graded by hand, and a results file imported. Grading is grading-service.ts's; the
// results feed on a schedule is results-feed.ts's, started here when RESULTS_FEED_URL is set.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { isoSeconds } from '#common/pick-seal.js';
import { IdParamsSchema } from '#common/schemas/ids.js';
import {
  EventCorrectionSchema,
  EventResultSchema,
  FeedDocumentSchema,
  ImportSummarySchema,
  LegGradeSchema,
  MarketRefreshedSchema,
  MarketRefreshSchema,
  PropLegPageSchema,
  ResultsPageQuerySchema,
  SettledEventPageSchema,
  SettledSchema,
  UnsettledEventPageSchema,
  type EventCorrection,
  type PropLeg,
} from '#common/schemas/results.js';
import { MessageSchema } from '#common/schemas/api.js';
import type { Db } from '#server/db/client.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { HttpError, notFound } from '#server/lib/http-errors.js';
import { MarketProviderError } from '../market/index.js';
import { currentUser, requireAdmin } from '../auth/index.js';
import { correctEvent, gradeLegByHand, settleEvent, type EventOutcome } from './grading-service.js';
import { findEvent } from './picks-repository.js';
import { HttpResultsProvider, importResults, scheduleResultsFeed } from './results-feed.js';
import { listSettledEvents, listUngradedProps, listUnsettledEvents } from './results-repository.js';
import { toEventView } from './routes.js';
import { marketOf } from './market-sync.js';

const ADMIN_ERRORS = errorResponses(401, 403);
/** An import's document may be larger than other bodies (MAX_FEED_RESULTS results). */
const IMPORT_BODY_LIMIT = 4 * 1024 * 1024;

function outcomeOf(body: EventOutcome | EventCorrection): EventOutcome {
  return body.status === 'final'
    ? { status: 'final', homeScore: body.homeScore, awayScore: body.awayScore }
    : { status: body.status };
}

export interface ResultsRoutesOptions {
  db: Db;
  /** RESULTS_FEED_URL and its interval: fetched on that schedule when set. */
  feed?: { url: string; intervalSeconds: number };
}

/** Admin only: 401 to a visitor, 403 to anyone else (the hook on this group). */
export async function resultsRoutes(app: FastifyInstance, options: ResultsRoutesOptions) {
  const { db } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('preHandler', requireAdmin);
  tagRoutes(app, 'Results');

  const settledAnswer = async (eventId: number, graded: { legs: number; picks: number }) => ({
    event: toEventView((await findEvent(db, eventId))!),
    ...graded,
  });

  api.get(
    '/api/admin/results',
    {
      schema: {
        summary: 'Events past their start without a result, oldest first',
        description: 'Each with its number of legs; `total` counts them all.',
        querystring: ResultsPageQuerySchema,
        response: { 200: UnsettledEventPageSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const { rows, total } = await listUnsettledEvents(db, new Date(), request.query);
      return {
        events: rows.map((row) => ({ ...toEventView(row.event), legCount: row.legCount })),
        total,
      };
    },
  );

  api.get(
    '/api/admin/results/settled',
    {
      schema: {
        summary: 'Settled events, most recently settled first',
        description: 'What an admin may correct.',
        querystring: ResultsPageQuerySchema,
        response: { 200: SettledEventPageSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const { rows, total } = await listSettledEvents(db, request.query);
      return {
        events: rows.map(({ event, legCount }) => ({
          ...toEventView(event),
          legCount,
          settledAt: isoSeconds(event.settledAt ?? event.createdAt),
          source: event.source,
        })),
        total,
      };
    },
  );

  api.get(
    '/api/admin/results/props',
    {
      schema: {
        summary: 'Prop and other legs waiting for a grade',
        description: 'Ungraded legs whose event is final or has started, oldest game first.',
        querystring: ResultsPageQuerySchema,
        response: { 200: PropLegPageSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const { rows, total } = await listUngradedProps(db, new Date(), request.query);
      return {
        legs: rows.map((row): PropLeg => ({
          legId: row.legId,
          eventId: row.event.id,
          league: row.event.league as PropLeg['league'],
          home: row.event.home,
          away: row.event.away,
          startsAt: isoSeconds(row.event.startsAt),
          eventStatus: row.event.status as PropLeg['eventStatus'],
          market: row.market as PropLeg['market'],
          side: row.side,
          odds: row.odds,
          units: row.units,
          videoId: row.videoId,
          title: row.title,
          capper: row.capper,
        })),
        total,
      };
    },
  );

  api.post(
    '/api/admin/events/:id/result',
    {
      schema: {
        summary: 'Settle an event: its final score, or postponed / cancelled',
        description:
          'Grades every leg on the event by rule and regrades their picks; postponed or cancelled voids them. Once only (409): a second result is a correction (PUT).',
        params: IdParamsSchema,
        body: EventResultSchema,
        response: { 200: SettledSchema, ...ADMIN_ERRORS, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const admin = currentUser(request);
      const graded = await settleEvent(db, id, outcomeOf(request.body), {
        adminId: admin.id,
        source: 'admin',
      });
      return settledAnswer(id, graded);
    },
  );

  api.put(
    '/api/admin/events/:id/result',
    {
      schema: {
        summary: "Correct a settled event's result",
        description:
          'With a reason: logged with before and after in the audit log, and every leg on the event regraded. 409 when the event has no result yet.',
        params: IdParamsSchema,
        body: EventCorrectionSchema,
        response: { 200: SettledSchema, ...ADMIN_ERRORS, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const graded = await correctEvent(
        db,
        id,
        outcomeOf(request.body),
        currentUser(request),
        request.body.reason,
      );
      return settledAnswer(id, graded);
    },
  );

  api.post(
    '/api/admin/legs/:id/grade',
    {
      schema: {
        summary: 'Grade a prop or other leg by hand',
        description:
          "With a reason, logged; the leg's pick is regraded. 400 for a leg graded from its event's score, 409 for a leg of a postponed or cancelled event.",
        params: IdParamsSchema,
        body: LegGradeSchema,
        response: { 200: MessageSchema, ...ADMIN_ERRORS, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      await gradeLegByHand(
        db,
        request.params.id,
        request.body.result,
        request.body.reason,
        currentUser(request),
      );
      return { message: 'Leg graded' };
    },
  );

  api.post(
    '/api/admin/results/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        summary: 'Import a results feed document',
        description:
          'Settles the scheduled events it names (docs/results-feed.md); events already settled alike are skipped, those settled differently are counted as conflicts and left for an admin to correct, games PickReel does not know are counted as unknown.',
        body: FeedDocumentSchema,
        response: { 200: ImportSummarySchema, ...ADMIN_ERRORS },
      },
    },
    async (request) =>
      // Settled by the admin who uploaded it, so the event says who; the source says it came from a file.
      importResults(db, request.body, { adminId: currentUser(request).id, source: 'import' }, request.log),
  );

  api.post(
    '/api/admin/market/refresh',
    {
      schema: {
        summary: "Fetch a league's market now",
        description:
          'Its prices (and, when asked, its schedule and scores) from the provider now, whatever the schedule of fetches says; started games then keep their closing prices, and final scores grade. 404 without a market; 502 when the provider does not answer.',
        body: MarketRefreshSchema,
        response: { 200: MarketRefreshedSchema, ...ADMIN_ERRORS, ...errorResponses(404, 502) },
      },
    },
    async (request) => {
      const market = marketOf(db);
      if (!market?.follows(request.body.league)) throw notFound('The market does not follow this league.');
      const { league, schedule, odds, scores } = request.body;
      try {
        return await market.refreshNow(league, { schedule, odds, scoresDays: scores ? 3 : 0 });
      } catch (error) {
        if (error instanceof MarketProviderError)
          throw new HttpError(502, `The market did not answer: ${error.message}`);
        throw error;
      }
    },
  );

  if (options.feed) {
    scheduleResultsFeed(app.jobs, {
      db,
      log: app.log,
      provider: new HttpResultsProvider(options.feed.url),
      intervalMs: options.feed.intervalSeconds * 1000,
    });
  }
}
