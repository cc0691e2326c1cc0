// Builds the Fastify app: plugins, then features. No listen() here (tests call inject()).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { HealthSchema } from '../common/schemas/api.js';
import type { AppConfig } from '../common/schemas/app-config.js';
import { proxyTrust, type Config } from './config.js';
import type { Database } from './db/client.js';
import { databaseRateLimitStore } from './db/rate-limit-store.js';
import {
  DEFAULT_AUTH_RATE_LIMITS,
  SessionStore,
  authRoutes,
  deleteExpiredSessions,
  emailRoutes,
  type AuthRateLimits,
} from './features/auth/index.js';
import { adminRoutes } from './features/admin/index.js';
import {
  capperRoutes,
  forgetRecordsOnChange,
  profileRoutes,
  rollRecordBands,
} from './features/cappers/index.js';
import { demoRoutes, demoStandInAnchor, ensureDemoToken } from './demo/index.js';
import { earningsRoutes } from './features/earnings/index.js';
import { followRoutes } from './features/follows/index.js';
import {
  alertFollowersOfPicks,
  handlePickAlerts,
  alertBuyersOfGradedPicks,
  alertMailSettings,
  alertSubscribersOfPicks,
  alertSubscriptionChanges,
  handleSubscriberPickAlerts,
  alertPreferenceRoutes,
  handleGradedAlerts,
  UNSUBSCRIBE_PATH,
  notificationRoutes,
  UnreadStreams,
} from './features/notifications/index.js';
import {
  cancelIntentsOfClosedPicks,
  cancelOpenIntentsForPriceChange,
  paymentRoutes,
} from './features/payments/index.js';
import { backfillPickLog, MarketSync, pickRoutes, resultsRoutes, useMarket } from './features/picks/index.js';
import { EspnScoreboard, OddsApiProvider, startMarketStandIn } from './features/market/index.js';
import { registerPickLog } from './features/pick-log/index.js';
import { handlePushAlerts, pushRoutes } from './features/push/index.js';
import { promoRoutes } from './features/promos/index.js';
import { purchaseRoutes } from './features/purchases/index.js';
import { seoRoutes } from './features/seo/index.js';
import {
  grantPicksToSubscribers,
  handlePickAccess,
  subscriptionRoutes,
  sweepSubscriptions,
} from './features/subscriptions/index.js';
import type { PaymentProvider } from './payments/provider.js';
import { SandboxProvider } from './payments/sandbox-provider.js';
import { registerUploads, tusChunkBytes, tusOpenApiPaths } from './features/uploads/index.js';
import {
  CatalogCache,
  clearCatalogOnChange,
  mediaRoutes,
  mediaVideoRecords,
  pagePictures,
  videoRoutes,
} from './features/videos/index.js';
import { dispatchOutbox, eventBus, pruneOutbox } from './events/index.js';
import { packageRoot } from './lib/package-root.js';
import { OUTSIDE_LANE, registerJobs } from './jobs/index.js';
import { registerMail } from './mail/index.js';
import { registerMediaJobs } from './media/jobs-plugin.js';
import { LocalMediaStorage, type MediaStorage } from './media/storage.js';
import { boundedLogDestination } from './lib/log-destination.js';
import { RequestLogController } from './lib/request-log.js';
import { serializeError } from './lib/log-safety.js';
import { registerApiContract, tagRoutes } from './plugins/api-contract.js';
import { registerApiDocs } from './plugins/api-docs.js';
import { registerClient, sendIndexHtml } from './plugins/client.js';
import { registerCompression } from './plugins/compression.js';
import {
  DEFAULT_CONNECTION_LIMITS,
  limitConnections,
  serverTimeoutOptions,
  type ConnectionLimits,
} from './plugins/connection-limits.js';
import { registerCsrfProtection } from './plugins/csrf.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerInputTextCheck } from './plugins/input-text.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where media lives: DATA_DIR/media, or the S3 bucket (docs/decisions/022). */
    storage: MediaStorage;
    /** Cached public catalog pages; clear() after any change to a video. */
    catalog: CatalogCache;
    /** The sports-data market (docs/decisions/025); null when none is configured. */
    market: MarketSync | null;
    /** This process's open alert streams (docs/decisions/035). */
    alertStreams: UnreadStreams;
  }
}

export interface AppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  authRateLimits?: AuthRateLimits;
  /** Overrides the provider chosen from the settings (tests point Stripe at a local stand-in). */
  paymentProvider?: PaymentProvider;
  /** Built client folder; null serves the API only. */
  clientDir?: string | null;
  /** Deadlines and socket caps (tests shorten them); DEFAULT_CONNECTION_LIMITS otherwise. */
  connectionLimits?: Partial<ConnectionLimits>;
  /** Parse every response with its schema before writing it, failing it on a mismatch (the API tests). */
  checkResponses?: boolean;
  /** false: the market is looked at only when asked (the API tests drive its ticks themselves). */
  marketTicks?: boolean;
}

const API_PREFIXES = ['/api/', '/media/'];

// Never log a session id or a password (headers and bodies are not logged; this is the backstop).
// Exact paths only: a wildcard ('*.password') makes pino walk every line's keys, on every request.
const LOG_REDACT = {
  paths: ['req.headers.cookie', 'req.headers.authorization', 'password', 'body.password', 'err.password'],
  censor: '[redacted]',
};

/**
 * Structured JSON logs to stdout through a bounded buffer (lib/log-destination.ts); errors through
 * serializeError (no query parameters).
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  const { stream } = boundedLogDestination();
  return { level, redact: LOG_REDACT, serializers: { err: serializeError }, stream };
}

/** Whatever logger options a caller passes (tests pass a stream), the redaction and the error serializer hold. */
function safeLoggerOptions(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  if (logger === true) return loggerOptions('info');
  return { redact: LOG_REDACT, ...logger, serializers: { ...logger.serializers, err: serializeError } };
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as {
    version?: string;
  };
  return pkg.version ?? '0.0.0';
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const { db } = database;
  // ROLE (docs/decisions/023): a web instance never runs the background work, a worker serves only its health.
  const servesHttp = config.role !== 'worker';
  const runsBackgroundWork = config.role !== 'web';
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits };
  // Only the configured proxy hops are believed; request.ip and request.protocol follow them.
  const trustProxy = proxyTrust(config.trustProxy);
  const app = Fastify({
    logger: safeLoggerOptions(options.logger),
    trustProxy,
    logController: new RequestLogController(),
    bodyLimit: 1024 * 1024,
    ...serverTimeoutOptions(limits),
  });
  limitConnections(app.server, limits, {
    isTrustedProxy: (address) => trustProxy !== false && trustProxy(address, 0),
    log: app.log,
  });
  app.setValidatorCompiler(validatorCompiler);
  // Responses go out through their schemas, and the routes are documented from them.
  registerApiContract(app, { checkData: options.checkResponses });
  registerApiDocs(app, { version: packageVersion(), paths: tusOpenApiPaths() });
  registerErrorHandler(app);
  registerInputTextCheck(app);
  // A worker builds the whole app (its jobs, the pick log's writer and the results feed need the features)
  // but answers nothing but its health check: it is no web instance, and a load balancer never sends it users.
  if (!servesHttp) {
    app.addHook('onRequest', async (request, reply) => {
      if (
        request.url.split('?')[0] === '/api/health' &&
        (request.method === 'GET' || request.method === 'HEAD')
      )
        return;
      return reply
        .code(404)
        .send({ message: 'This is a PickReel worker: it serves no pages (ROLE=worker).' });
    });
  }

  registerSecurityHeaders(app);
  registerCompression(app);
  await app.register(cookie, { secret: config.sessionSecret });
  // Counted in the database: every instance on it shares each limit (docs/decisions/024).
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(db) });
  // RFC 8058: a mail client's one-click unsubscribe comes from no page of ours; its signed token is the proof.
  registerCsrfProtection(app, { exemptPaths: ['/api/stripe/webhook', UNSUBSCRIBE_PATH] });

  const sessions = new SessionStore(db);
  app.decorate('sessions', sessions);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  // A callback hook, not an async one: most requests (no cookie, or a cached session) finish it at once.
  app.addHook('onRequest', (request, _reply, done) => {
    const loading = API_PREFIXES.some((prefix) => request.url.startsWith(prefix))
      ? sessions.load(request)
      : null;
    if (!loading) return done();
    loading.then(() => done(), done);
  });

  await app.register(async (service) => {
    tagRoutes(service, 'Service');
    service.get(
      '/api/health',
      { schema: { summary: 'Whether the server and its database answer', response: { 200: HealthSchema } } },
      async () => {
        await database.exec('select 1');
        return { status: 'ok' as const };
      },
    );
  });
  await app.register(authRoutes, {
    db,
    limits: options.authRateLimits ?? DEFAULT_AUTH_RATE_LIMITS,
    sessionSecret: config.sessionSecret,
    publicUrl: config.publicUrl,
  });
  await app.register(emailRoutes, { db, sessionSecret: config.sessionSecret, publicUrl: config.publicUrl });
  // The AWS SDK is loaded only when a bucket is configured: the embedded default never carries it.
  const storage: MediaStorage = config.s3
    ? await (await import('./media/s3-storage.js')).openS3MediaStorage(config.s3)
    : new LocalMediaStorage(path.join(config.dataDir, 'media'));
  app.decorate('storage', storage);
  // The embedded database has one writer, this process: deep-page checkpoints live until a change (deep-pages.ts).
  const catalog = new CatalogCache({ soleWriter: database.kind === 'pglite' });
  app.decorate('catalog', catalog);
  // Side effects follow the domain events the services emit (docs/events.md): in-process caches after commit.
  const events = eventBus(db);
  events.reportError = (err, context) => app.log.warn({ err, ...context }, 'an event subscriber failed');
  const unsubscribe = [clearCatalogOnChange(db, catalog), forgetRecordsOnChange(db)];
  app.addHook('onClose', async () => {
    for (const stop of unsubscribe) stop();
  });
  await app.register(videoRoutes, { db, storage, sessionSecret: config.sessionSecret, catalog });
  await app.register(adminRoutes, { db, storage });
  // The durable queue every feature's background work goes through (docs/decisions/029); on ROLE=web it
  // queues jobs and runs none.
  const jobs = registerJobs(app, {
    db,
    reclaimOnStart: database.kind === 'pglite',
    runsJobs: runsBackgroundWork,
  });
  // Mail goes out through SMTP_URL, or stays in the outbox for an admin to read (docs/decisions/036).
  registerMail(app, jobs, { db, settings: config.mail });
  // Media is a library that knows no feature (docs/decisions/017): the videos feature gives its jobs their
  // rows and serves its files under /media/, and uploads queue its jobs.
  const mediaJobs = registerMediaJobs(app, {
    jobs,
    videos: mediaVideoRecords(db),
    storage,
    workRoot: path.join(config.dataDir, 'work'),
  });
  await app.register(mediaRoutes, { db, storage });
  await registerUploads(app, {
    db,
    database,
    storage,
    uploadsDir: path.join(config.dataDir, 'uploads'),
    s3: config.s3,
    onJobQueued: () => mediaJobs.notify(),
  });
  // Stripe's SDK is large, so it is loaded only when its keys are set.
  const payments: PaymentProvider =
    options.paymentProvider ??
    (config.stripe
      ? new (await import('./payments/stripe-provider.js')).StripeProvider({
          secretKey: config.stripe.secretKey,
          webhookSecret: config.stripe.webhookSecret,
        })
      : new SandboxProvider(db));
  // A new price cancels the open intents at the old one (decision 010), before the edit answers; a cancel
  // lost to a crash is caught by the checks at confirmation and fulfilment (docs/decisions/031).
  unsubscribe.push(
    events.afterCommit('price.changed', (event) =>
      cancelOpenIntentsForPriceChange(db, payments, event.videoId, app.log),
    ),
  );
  await app.register(paymentRoutes, { db, provider: payments });
  await app.register(purchaseRoutes, { db });
  await app.register(promoRoutes, { db });
  await app.register(demoRoutes, { db, token: ensureDemoToken(config.dataDir) });
  // Picks sealed before the log existed are logged once, before the first checkpoint is signed.
  const backfilled = await backfillPickLog(db);
  if (backfilled)
    app.log.info({ entries: backfilled }, 'pick log: logged the picks sealed before it existed');
  await registerPickLog(app, { db, settings: { dataDir: config.dataDir, ...config.pickLog } });
  // The market: the provider the settings name, or with SEED_DEMO and no key the demo's own stand-in, which
  // this app starts and stops (docs/decisions/025). Every instance may fetch prices on demand; the ticks
  // (closing prices, scores) run where the background work runs.
  let marketSettings = config.market;
  if (!marketSettings && config.seedDemo) {
    const standIn = await startMarketStandIn({
      demo: { anchor: demoStandInAnchor(config.dataDir), leagues: config.marketLeagues.leagues },
    });
    app.addHook('onClose', async () => standIn.close());
    marketSettings = {
      apiKey: standIn.apiKey,
      url: standIn.url,
      refreshSeconds: config.marketRefreshSeconds,
      scores: { source: 'provider' },
      ...config.marketLeagues,
    };
    app.log.info({ url: standIn.url }, 'SEED_DEMO: the market is the local stand-in');
  }
  let market: MarketSync | null = null;
  if (marketSettings) {
    const provider = new OddsApiProvider({
      apiKey: marketSettings.apiKey,
      baseUrl: marketSettings.url,
      leagues: marketSettings.leagues,
      sportKeys: marketSettings.sportKeys,
    });
    const scores =
      marketSettings.scores.source === 'espn'
        ? new EspnScoreboard({ baseUrl: marketSettings.scores.url, leagues: marketSettings.leagues })
        : undefined;
    market = new MarketSync(db, provider, {
      tickSeconds: marketSettings.refreshSeconds,
      log: app.log,
      ...(scores && { scores }),
    });
    useMarket(db, market);
    if (options.marketTicks !== false) {
      const sync = market;
      jobs.every('market_tick', marketSettings.refreshSeconds * 1000, () => sync.tickLogged(), {
        lane: OUTSIDE_LANE,
      });
    }
  }
  app.decorate('market', market);
  await app.register(pickRoutes, { db });
  await app.register(capperRoutes, { db });
  await app.register(profileRoutes, { db, storage });
  // The feed is fetched by the workers (or the one ROLE=all instance), not once per web instance.
  await app.register(resultsRoutes, { db, feed: runsBackgroundWork ? config.resultsFeed : undefined });
  await app.register(earningsRoutes, { db });
  await app.register(seoRoutes, { db });
  // Follows and their alerts (docs/decisions/035): pick.posted → durable subscriber → job → alert rows →
  // the open streams of this process (and a slow re-check for what other processes write).
  await app.register(followRoutes, { db });
  const unreadStreams = new UnreadStreams(db, app.log);
  app.decorate('alertStreams', unreadStreams);
  app.addHook('preClose', async () => unreadStreams.close());
  // E-mail alerts and graded picks' alerts, filtered by each user's preferences (docs/decisions/040).
  const alertMail = alertMailSettings(config);
  unsubscribe.push(events.durable(alertFollowersOfPicks(() => jobs.notify())));
  handlePickAlerts(jobs, unreadStreams, alertMail);
  unsubscribe.push(events.durable(alertBuyersOfGradedPicks(() => jobs.notify())));
  handleGradedAlerts(jobs, unreadStreams, alertMail);
  await app.register(notificationRoutes, { db, streams: unreadStreams });
  // Web Push (docs/decisions/038): the in-app alerts' job queues a push fan-out per event.
  handlePushAlerts(jobs, db, config.push);
  await app.register(pushRoutes, { db, settings: config.push });
  // Capper subscriptions (docs/decisions/037): pick.posted → durable subscriber → job → pick_access rows.
  await app.register(subscriptionRoutes, { db, provider: payments });
  unsubscribe.push(events.durable(grantPicksToSubscribers(() => jobs.notify())));
  handlePickAccess(jobs, payments.billing);
  // Subscribers' alerts (docs/decisions/040): a granted pick with its selections; a subscription's news.
  unsubscribe.push(events.durable(alertSubscribersOfPicks(() => jobs.notify())));
  handleSubscriberPickAlerts(jobs, unreadStreams, alertMail);
  unsubscribe.push(events.durable(alertSubscriptionChanges(unreadStreams, alertMail)));
  await app.register(alertPreferenceRoutes, { db, unsubscribeKey: alertMail.key });

  const appConfig: AppConfig = {
    supportPhone: config.supportPhone,
    paymentProvider: payments.name,
    stripePublishableKey: config.stripe?.publishableKey ?? null,
    uploadChunkBytes: tusChunkBytes(config.s3 !== undefined),
    marketLeagues: market ? [...market.provider.leagues] : [],
  };
  const clientDir =
    options.clientDir === undefined ? path.join(packageRoot(), 'dist', 'client') : options.clientDir;
  if (clientDir && servesHttp)
    await registerClient(app, clientDir, appConfig, pagePictures(db, catalog, app.log));

  app.setNotFoundHandler(async (request, reply) => {
    const isApi = API_PREFIXES.some((prefix) => request.url.startsWith(prefix));
    if (!isApi && (request.method === 'GET' || request.method === 'HEAD') && app.indexHtml) {
      return sendIndexHtml(request, reply, app.indexHtml, await app.pagePreloads?.(request.url));
    }
    return reply.code(404).send({ message: `Not found: ${request.method} ${request.url.split('?')[0]}` });
  });

  // Recurring work, run where the background work runs (one worker per period: docs/decisions/029).
  // Expired sessions are dead already; sweep them hourly so the table stays small.
  jobs.every('sweep_sessions', 60 * 60 * 1000, () => deleteExpiredSessions(db, new Date()), {
    failureMessage: 'session sweep failed',
  });
  // A pick's open payments are cancelled once its first game starts: sales close at the start.
  jobs.every('close_started_sales', 10_000, () => cancelIntentsOfClosedPicks(db, payments, app.log), {
    failureMessage: 'closing the sales of started picks failed',
  });
  // The record bands' clock follows time here, not in the leaderboard's read (decision 033): a read then
  // moves only the minute's picks that crossed 30 or 90 days since.
  jobs.every('roll_record_bands', 60_000, () => rollRecordBands(db), {
    failureMessage: 'moving the record bands failed',
  });
  // Subscriptions due on the provider's clock are renewed, retried in their grace, or ended.
  const billing = payments.billing;
  if (billing)
    jobs.every('renew_subscriptions', 60_000, () => sweepSubscriptions(db, billing), {
      failureMessage: 'renewing subscriptions failed',
    });
  // The outbox's durable subscribers get their events here (docs/events.md); delivered events are pruned.
  jobs.every('dispatch_outbox', 5_000, () => dispatchOutbox(db), {
    failureMessage: 'dispatching domain events failed',
  });
  // An event a durable subscriber takes is handed over at once, not at the next period.
  events.onDurableEvent(() => jobs.runSoon('dispatch_outbox'));
  jobs.every('prune_outbox', 60 * 60 * 1000, () => pruneOutbox(db), {
    failureMessage: 'pruning the domain events failed',
  });

  return app;
}
