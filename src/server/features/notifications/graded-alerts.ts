// A bought pick is graded (docs/decisions/040): the durable subscriber of the grading events queues one job
// per event (keyed by it); the job finds the event's graded picks and alerts their buyers in the app and by
// e-mail, once per person, pick and grade, however many events grade it (a settled game, then its closing
// prices) and however often the job runs. A corrected grade is a new grade: it is alerted again.
import type { Tx } from '#server/db/client.js';
import { afterCommit } from '#server/db/after-commit.js';
import type { DurableSubscriber, StoredEvent } from '#server/events/index.js';
import { defineJob, enqueue, type JobHandler, type JobRunner } from '#server/jobs/index.js';
import { formatResultUnits } from '#common/pick-result-text.js';
import { ALERT_MAX_AGE_MS } from './follower-alerts.js';
import { queueGradedMails, type AlertMailSettings } from './mail-alerts.js';
import {
  eventTime,
  gradedPicks,
  insertGradedAlerts,
  picksOfMarketEvent,
} from './notifications-repository.js';
import type { UnreadStreams } from './unread-streams.js';

export interface GradedAlertsPayload {
  eventId: number;
  /** A settled game: its picks are those with a leg on it. */
  marketEventId?: number;
  /** Or the picks the event names. */
  videoIds?: number[];
}

export const gradedAlertsJob = defineJob<GradedAlertsPayload>({
  kind: 'alert_buyers_of_graded_picks',
  retry: { attempts: 8, delaysMs: [5_000, 30_000, 2 * 60_000, 10 * 60_000] },
  failureMessage: "writing graded picks' alerts failed",
  logFields: (payload) => ({ eventId: payload.eventId }),
});

type GradingEvent = 'game.settled' | 'leg.graded' | 'picks.regraded';

export function alertBuyersOfGradedPicks(
  onQueued: () => void = () => {},
  now: () => Date = () => new Date(),
): DurableSubscriber<GradingEvent> {
  return {
    name: 'notifications.graded-alerts',
    types: ['game.settled', 'leg.graded', 'picks.regraded'],
    handle: async (stored: StoredEvent<GradingEvent>, tx: Tx) => {
      // One of the three, told apart by its type.
      const event = stored as
        StoredEvent<'game.settled'> | StoredEvent<'leg.graded'> | StoredEvent<'picks.regraded'>;
      const at = await eventTime(tx, event.id);
      if (!at || now().getTime() - at.getTime() > ALERT_MAX_AGE_MS) return;
      const which: Omit<GradedAlertsPayload, 'eventId'> =
        event.type === 'game.settled'
          ? { marketEventId: event.eventId }
          : { videoIds: event.type === 'leg.graded' ? [event.videoId] : event.videoIds };
      const queued = await enqueue(
        tx,
        gradedAlertsJob,
        { eventId: event.id, ...which },
        { key: `graded-alerts:${event.id}` },
      );
      if (queued !== null) await afterCommit(tx, onQueued);
    },
  };
}

export function gradedAlertsHandler(
  streams: UnreadStreams,
  mail: AlertMailSettings,
): JobHandler<GradedAlertsPayload> {
  return {
    async run(payload, ctx) {
      const videoIds =
        payload.videoIds ??
        (payload.marketEventId === undefined ? [] : await picksOfMarketEvent(ctx.db, payload.marketEventId));
      const picks = await gradedPicks(ctx.db, videoIds);
      if (picks.length === 0) return;
      const alerted = await insertGradedAlerts(ctx.db, payload.eventId, picks);
      for (const pick of picks)
        await queueGradedMails(
          ctx.db,
          { ...pick, units: pick.unitsWon === null ? '' : formatResultUnits(pick.unitsWon) },
          mail,
        );
      await streams.usersChanged(alerted);
    },
  };
}

export function handleGradedAlerts(jobs: JobRunner, streams: UnreadStreams, mail: AlertMailSettings): void {
  jobs.handle(gradedAlertsJob, gradedAlertsHandler(streams, mail));
}
