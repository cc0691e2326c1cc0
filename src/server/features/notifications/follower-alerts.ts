// How a new pick reaches its capper's followers (docs/decisions/035): the durable subscriber of
// `pick.posted` queues one job in the dispatcher's transaction (keyed by the event, so a second dispatch
// queues nothing while the first is live); the job writes every follower's alert in one statement, keyed
// (user, event), so running it again writes nothing twice; then this process's open streams are told.
import type { Tx } from '#server/db/client.js';
import { afterCommit } from '#server/db/after-commit.js';
import type { DurableSubscriber, StoredEvent } from '#server/events/index.js';
import { defineJob, enqueue, type JobHandler, type JobRunner } from '#server/jobs/index.js';
import { queuePushAlerts } from '../push/index.js';
import { queueNewPickMails, type AlertMailSettings } from './mail-alerts.js';
import {
  eventTime,
  followerOnlyRecipient,
  hasFollowers,
  insertPickAlerts,
} from './notifications-repository.js';
import type { UnreadStreams } from './unread-streams.js';

/**
 * An event older than this is not alerted: a subscriber started afresh (renamed, or new on a database
 * whose outbox keeps a week of events) would otherwise alert about picks long posted, likely started.
 */
export const ALERT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface PickAlertsPayload {
  eventId: number;
  videoId: number;
  capperId: number;
  /** When the event was recorded (ISO): only follows begun before it are alerted. */
  eventAt: string;
}

export const pickAlertsJob = defineJob<PickAlertsPayload>({
  kind: 'alert_followers_of_pick',
  retry: { attempts: 8, delaysMs: [5_000, 30_000, 2 * 60_000, 10 * 60_000] },
  failureMessage: "writing a new pick's alerts failed",
  logFields: (payload) => ({ videoId: payload.videoId, eventId: payload.eventId }),
});

export const pickAlertsKey = (eventId: number) => `pick-alerts:${eventId}`;

/** The durable subscriber that queues the fan-out; `onQueued` wakes this process's runner after commit. */
export function alertFollowersOfPicks(
  onQueued: () => void = () => {},
  now: () => Date = () => new Date(),
): DurableSubscriber<'pick.posted'> {
  return {
    name: 'notifications.pick-alerts',
    types: ['pick.posted'],
    handle: async (event: StoredEvent<'pick.posted'>, tx: Tx) => {
      const at = await eventTime(tx, event.id);
      if (!at || now().getTime() - at.getTime() > ALERT_MAX_AGE_MS) return;
      if (!(await hasFollowers(tx, event.capperId))) return;
      const queued = await enqueue(
        tx,
        pickAlertsJob,
        { eventId: event.id, videoId: event.videoId, capperId: event.capperId, eventAt: at.toISOString() },
        { key: pickAlertsKey(event.id) },
      );
      if (queued !== null) await afterCommit(tx, onQueued);
    },
  };
}

/**
 * The job's handler: the set-based insert, this process's streams of the capper's followers, then the
 * e-mails (without `mail`, none). Each step is idempotent, so a retry after any of them redoes no harm.
 */
export function pickAlertsHandler(
  streams: UnreadStreams,
  mail?: AlertMailSettings,
): JobHandler<PickAlertsPayload> {
  return {
    async run(payload, ctx) {
      const alert = { ...payload, eventAt: new Date(payload.eventAt) };
      // The push fan-out is queued with the rows it reads (docs/decisions/038).
      await ctx.db.transaction(async (tx) => {
        await insertPickAlerts(tx, alert);
        // Whoever can read the pick (or is to) is pushed by the subscribers' job, with the pick.
        await queuePushAlerts(tx, { eventId: payload.eventId, videoId: payload.videoId }, (user) =>
          followerOnlyRecipient(user, alert, 'push'),
        );
      });
      await streams.capperPosted(payload.capperId);
      if (mail) await queueNewPickMails(ctx.db, alert, mail);
    },
  };
}

/** Gives the runner the fan-out's handler. */
export function handlePickAlerts(jobs: JobRunner, streams: UnreadStreams, mail?: AlertMailSettings): void {
  jobs.handle(pickAlertsJob, pickAlertsHandler(streams, mail));
}
