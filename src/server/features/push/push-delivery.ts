// Push alerts of a new pick (docs/decisions/038): the in-app alerts' job queues the event's deliveries and
// one fan-out job in its transaction; this job sends them, the in-app alert's text (never the selections). One delivery row per (event, user, endpoint): a retry sends only rows still queued.
// Other alerts (a subscriber's pick, a subscription's news) queue their message, composed by the caller.
import webPush from 'web-push';
import { newPickText } from '#common/alert-text.js';
import { afterCommit, databaseOf } from '#server/db/after-commit.js';
import type { SQL } from '#server/db/drizzle.js';
import type { Db, Executor } from '#server/db/client.js';
import {
  defineJob,
  enqueue,
  errorText,
  OUTSIDE_LANE,
  type JobContext,
  type JobRunner,
} from '#server/jobs/index.js';
import { endpointRefusal, type PushServiceHosts } from '#server/lib/push-hosts.js';
import {
  deleteEndpoint,
  failQueuedDeliveries,
  hasSubscriptions,
  markDelivery,
  noteSubscriptionFailure,
  pickAlertSource,
  queueDeliveries,
  queuedDeliveries,
  type PickAlertSource,
  type QueuedDelivery,
} from './push-repository.js';

export interface PushSettings {
  vapid: { publicKey: string; privateKey: string; subject: string };
  serviceHosts: PushServiceHosts;
}

export interface PushAlertsPayload {
  eventId: number;
  videoId: number;
}

export const pushAlertsJob = defineJob<PushAlertsPayload>({
  kind: 'push_pick_alerts',
  // Push services are outside services: a slow one holds up no sweep.
  lane: OUTSIDE_LANE,
  retry: { attempts: 6, delaysMs: [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 2 * 60 * 60_000] },
  failureMessage: 'sending push alerts failed',
  logFields: (payload) => ({ eventId: payload.eventId, videoId: payload.videoId }),
});

/** Rows read and sent per round, and pushes in flight at once. */
export const PUSH_BATCH = 200;
export const PUSH_CONCURRENCY = 8;
/** A pick alert is worth little once its games are on: a push service may drop it after this. */
export const PUSH_TTL_SECONDS = 12 * 60 * 60;
const PUSH_TIMEOUT_MS = 15_000;

// The runner of each database, woken when a fan-out commits (state kept per database: decision 032).
const wakers = new WeakMap<Db, () => void>();

/**
 * Queues the event's push fan-out in the caller's transaction (the in-app alerts' job's): a delivery row
 * per subscription of each user `recipient` accepts, and the job that sends them.
 */
export async function queuePushAlerts(
  tx: Executor,
  payload: PushAlertsPayload,
  recipient: (user: SQL) => SQL,
): Promise<void> {
  if (!(await hasSubscriptions(tx))) return;
  await queueDeliveries(tx, payload.eventId, recipient);
  const queued = await enqueue(tx, pushAlertsJob, payload, { key: `push-alerts:${payload.eventId}` });
  if (queued !== null) await afterCommit(tx, () => wakers.get(databaseOf(tx))?.());
}

/** The in-app alert's words (common/alert-text, as notifications shows them): the pick's public face only. */
export function pickAlertMessage(pick: PickAlertSource): PushMessage {
  return { ...newPickText(pick), url: `/video/${pick.videoId}`, tag: `pick-${pick.videoId}` };
}

/** What a push shows: its words, where a click leads, and the tag a later push of the same thing replaces. */
export interface PushMessage {
  title: string;
  body: string;
  url: string;
  tag: string;
}

export interface PushMessagePayload {
  /** The domain event the push is about: its deliveries are keyed by it. */
  eventId: number;
  message: PushMessage;
}

export const pushMessageJob = defineJob<PushMessagePayload>({
  kind: 'push_message',
  lane: OUTSIDE_LANE,
  retry: { attempts: 6, delaysMs: [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 2 * 60 * 60_000] },
  failureMessage: 'sending push alerts failed',
  logFields: (payload) => ({ eventId: payload.eventId }),
});

/**
 * Queues `message` for every subscription of each user `recipient` accepts, in the caller's transaction:
 * the same delivery rows and idempotence as a new pick's, for an alert whose words the caller composed.
 */
export async function queuePushMessage(
  tx: Executor,
  payload: PushMessagePayload,
  recipient: (user: SQL) => SQL,
): Promise<void> {
  if (!(await hasSubscriptions(tx))) return;
  await queueDeliveries(tx, payload.eventId, recipient);
  const queued = await enqueue(tx, pushMessageJob, payload, { key: `push-message:${payload.eventId}` });
  if (queued !== null) await afterCommit(tx, () => wakers.get(databaseOf(tx))?.());
}

type Outcome = 'sent' | 'gone' | 'failed' | 'retry';

/** A push service's answer as a delivery's outcome. */
export function outcomeOf(status: number): Outcome {
  if (status >= 200 && status < 300) return 'sent';
  if (status === 404 || status === 410) return 'gone';
  // Too many requests, or the service failing: later. A redirect is never followed (nor retried).
  if (status === 429 || status >= 500) return 'retry';
  return 'failed';
}

async function sendOne(
  delivery: QueuedDelivery,
  payload: string,
  topic: string,
  settings: PushSettings,
  ctx: JobContext,
): Promise<{ outcome: Outcome; error?: string }> {
  // Checked again at sending: the allow-list may have shrunk since the browser subscribed.
  const refusal = endpointRefusal(delivery.endpoint, settings.serviceHosts);
  if (refusal) return { outcome: 'failed', error: `endpoint ${refusal}` };
  let details: ReturnType<typeof webPush.generateRequestDetails>;
  try {
    // web-push encrypts (RFC 8291, aes128gcm) and signs the VAPID JWT; the request is ours, so it goes to
    // http on a listed loopback stand-in too and never follows a redirect.
    details = webPush.generateRequestDetails(
      { endpoint: delivery.endpoint, keys: { p256dh: delivery.p256dh, auth: delivery.auth } },
      payload,
      { vapidDetails: settings.vapid, TTL: PUSH_TTL_SECONDS, urgency: 'normal', topic },
    );
  } catch (error) {
    return { outcome: 'failed', error: `could not encrypt: ${errorText(error)}` };
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(details.headers)) {
    if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
  }
  try {
    const response = await fetch(delivery.endpoint, {
      method: 'POST',
      headers,
      body: details.body ? new Uint8Array(details.body) : null,
      redirect: 'manual',
      signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(PUSH_TIMEOUT_MS)]),
    });
    const text = response.ok ? '' : (await response.text().catch(() => '')).slice(0, 200);
    await response.body?.cancel().catch(() => {});
    const outcome = outcomeOf(response.status);
    return outcome === 'sent' ? { outcome } : { outcome, error: `${response.status} ${text}`.trim() };
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return { outcome: 'retry', error: errorText(error) };
  }
}

/** Runs `work` over `items`, at most `limit` at once. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

export function pushAlertsHandler(settings: PushSettings) {
  return {
    async run({ eventId, videoId }: PushAlertsPayload, ctx: JobContext) {
      const pick = await pickAlertSource(ctx.db, videoId);
      if (!pick) {
        await failQueuedDeliveries(ctx.db, eventId, 'the pick is no longer shown');
        return;
      }
      // A push service keeps one waiting message per topic: a copy sent again replaces the first.
      await sendQueued(eventId, JSON.stringify(pickAlertMessage(pick)), `pick${eventId}`, settings, ctx);
    },
    async onFailed({ eventId }: PushAlertsPayload, err: unknown, ctx: JobContext) {
      await failQueuedDeliveries(ctx.db, eventId, errorText(err));
    },
  };
}

/** Sends a caller-composed message to its event's queued deliveries. */
export function pushMessageHandler(settings: PushSettings) {
  return {
    async run({ eventId, message }: PushMessagePayload, ctx: JobContext) {
      await sendQueued(eventId, JSON.stringify(message), `alert${eventId}`, settings, ctx);
    },
    async onFailed({ eventId }: PushMessagePayload, err: unknown, ctx: JobContext) {
      await failQueuedDeliveries(ctx.db, eventId, errorText(err));
    },
  };
}

/** Sends the event's queued deliveries in batches; throws (for the job's retry) if any should be sent again. */
async function sendQueued(
  eventId: number,
  payload: string,
  topic: string,
  settings: PushSettings,
  ctx: JobContext,
): Promise<void> {
  let afterId = 0;
  let toRetry = 0;
  let lastError = '';
  for (;;) {
    const batch = await queuedDeliveries(ctx.db, eventId, afterId, PUSH_BATCH);
    if (batch.length === 0) break;
    afterId = batch[batch.length - 1]!.id;
    await pool(batch, PUSH_CONCURRENCY, async (delivery) => {
      const { outcome, error } = await sendOne(delivery, payload, topic, settings, ctx);
      if (outcome === 'retry') {
        toRetry += 1;
        lastError = error ?? '';
        return;
      }
      if (outcome === 'gone') await deleteEndpoint(ctx.db, delivery.endpoint);
      if (outcome === 'failed') await noteSubscriptionFailure(ctx.db, delivery.endpoint, error ?? '');
      await markDelivery(ctx.db, delivery.id, outcome, error ?? null);
    });
  }
  // Subscriptions deleted or moved to another user meanwhile: nothing to send them.
  if (toRetry === 0) await failQueuedDeliveries(ctx.db, eventId, 'the subscription is gone');
  // The job's retry sends only what is still queued.
  else throw new Error(`${toRetry} push(es) to send again: ${lastError}`);
}

/** Gives the runner the fan-out's handler, and lets a committed fan-out wake it. */
export function handlePushAlerts(jobs: JobRunner, db: Db, settings: PushSettings): void {
  wakers.set(db, () => jobs.notify(OUTSIDE_LANE));
  jobs.handle(pushAlertsJob, pushAlertsHandler(settings));
  jobs.handle(pushMessageJob, pushMessageHandler(settings));
}
