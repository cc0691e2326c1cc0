// How a new pick reaches its capper's subscribers (docs/decisions/040): the subscriptions feature grants the
// pick and emits `pick.access_granted` in that transaction; this durable subscriber queues one job (keyed by
// the pick's event), which alerts whoever can read the pick: in the app (the follower's row, if any, is the
// same row: one per person and event), by e-mail and push with the selections.
import { subscriberPickText } from '#common/alert-text.js';
import type { Tx } from '#server/db/client.js';
import { afterCommit } from '#server/db/after-commit.js';
import type { DurableSubscriber, StoredEvent } from '#server/events/index.js';
import { defineJob, enqueue, type JobHandler, type JobRunner } from '#server/jobs/index.js';
import { queuePushMessage } from '../push/index.js';
import { pickFace } from './alert-preferences-repository.js';
import { ALERT_MAX_AGE_MS } from './follower-alerts.js';
import { queueSubscriberPickMails, type AlertMailSettings } from './mail-alerts.js';
import {
  eventTime,
  insertSubscriberPickAlerts,
  pickSelections,
  subscriberRecipient,
} from './notifications-repository.js';
import type { UnreadStreams } from './unread-streams.js';

export interface SubscriberPickAlertsPayload {
  /** The pick.posted event: the in-app alert's key, shared with the followers' alert. */
  eventId: number;
  /** The pick.access_granted event: its pushes' key. */
  grantEventId: number;
  videoId: number;
  capperId: number;
  eventAt: string;
}

export const subscriberPickAlertsJob = defineJob<SubscriberPickAlertsPayload>({
  kind: 'alert_subscribers_of_pick',
  retry: { attempts: 8, delaysMs: [5_000, 30_000, 2 * 60_000, 10 * 60_000] },
  failureMessage: "writing a new pick's subscriber alerts failed",
  logFields: (payload) => ({ videoId: payload.videoId, eventId: payload.eventId }),
});

export function alertSubscribersOfPicks(
  onQueued: () => void = () => {},
  now: () => Date = () => new Date(),
): DurableSubscriber<'pick.access_granted'> {
  return {
    name: 'notifications.subscriber-pick-alerts',
    types: ['pick.access_granted'],
    handle: async (event: StoredEvent<'pick.access_granted'>, tx: Tx) => {
      const at = await eventTime(tx, event.postedEventId);
      if (!at || now().getTime() - at.getTime() > ALERT_MAX_AGE_MS) return;
      const queued = await enqueue(
        tx,
        subscriberPickAlertsJob,
        {
          eventId: event.postedEventId,
          grantEventId: event.id,
          videoId: event.videoId,
          capperId: event.capperId,
          eventAt: at.toISOString(),
        },
        { key: `subscriber-pick-alerts:${event.postedEventId}` },
      );
      if (queued !== null) await afterCommit(tx, onQueued);
    },
  };
}

export function subscriberPickAlertsHandler(
  streams: UnreadStreams,
  mail?: AlertMailSettings,
): JobHandler<SubscriberPickAlertsPayload> {
  return {
    async run(payload, ctx) {
      const alert = { ...payload, eventAt: new Date(payload.eventAt) };
      const selections = await pickSelections(ctx.db, payload.videoId);
      if (selections === undefined) return;
      const alerted = await ctx.db.transaction(async (tx) => {
        const users = await insertSubscriberPickAlerts(tx, alert);
        const face = await pickFace(tx, payload.videoId);
        if (!face) return users;
        await queuePushMessage(
          tx,
          {
            eventId: payload.grantEventId,
            message: {
              ...subscriberPickText(face, selections),
              url: `/video/${payload.videoId}`,
              tag: `pick-${payload.videoId}`,
            },
          },
          (user) => subscriberRecipient(user, alert, 'push'),
        );
        return users;
      });
      await streams.usersChanged(alerted);
      if (mail) await queueSubscriberPickMails(ctx.db, alert, selections, mail);
    },
  };
}

export function handleSubscriberPickAlerts(
  jobs: JobRunner,
  streams: UnreadStreams,
  mail?: AlertMailSettings,
): void {
  jobs.handle(subscriberPickAlertsJob, subscriberPickAlertsHandler(streams, mail));
}
