// How a new pick reaches its capper's subscribers (docs/decisions/037): the durable subscriber of
// `pick.posted` queues one job in the dispatcher's transaction (keyed by the event); the job writes every
// live subscriber's pick_access row in one statement, keyed (user, video), so running it again adds nothing.
import type { Tx } from '#server/db/client.js';
import { afterCommit } from '#server/db/after-commit.js';
import type { DurableSubscriber, StoredEvent } from '#server/events/index.js';
import { emit } from '#server/events/index.js';
import { defineJob, enqueue, type JobHandler, type JobRunner } from '#server/jobs/index.js';
import type { RecurringBilling } from '#server/payments/provider.js';
import { sql, type SQL } from '#server/db/drizzle.js';
import { grantPickToSubscribers, hasLiveSubscribers, inPlanLeagues } from './subscriptions-repository.js';

export interface PickAccessPayload {
  videoId: number;
  capperId: number;
  /** The pick.posted event (absent on jobs queued before it was carried): its subscribers' alerts follow it. */
  eventId?: number;
}

export const pickAccessJob = defineJob<PickAccessPayload>({
  kind: 'grant_subscribers_pick',
  retry: { attempts: 8, delaysMs: [2_000, 10_000, 60_000, 10 * 60_000] },
  failureMessage: "granting a new pick to its capper's subscribers failed",
  logFields: (payload) => ({ videoId: payload.videoId }),
});

/** The durable subscriber that queues the grant; `onQueued` wakes this process's runner after commit. */
export function grantPicksToSubscribers(onQueued: () => void = () => {}): DurableSubscriber<'pick.posted'> {
  return {
    name: 'subscriptions.pick-access',
    types: ['pick.posted'],
    handle: async (event: StoredEvent<'pick.posted'>, tx: Tx) => {
      if (!(await hasLiveSubscribers(tx, event.capperId))) return;
      const queued = await enqueue(
        tx,
        pickAccessJob,
        { videoId: event.videoId, capperId: event.capperId, eventId: event.id },
        { key: `pick-access:${event.id}` },
      );
      if (queued !== null) await afterCommit(tx, onQueued);
    },
  };
}

/** Live is judged on the provider's clock, as the renewals are. */
export function pickAccessHandler(billing: RecurringBilling | undefined): JobHandler<PickAccessPayload> {
  return {
    async run(payload, ctx) {
      const now = billing ? await billing.now() : new Date();
      // The event commits with the grant: the subscribers' alerts never claim access not yet recorded.
      await ctx.db.transaction(async (tx) => {
        const granted = await grantPickToSubscribers(tx, payload.videoId, now);
        if (granted > 0 && payload.eventId !== undefined) {
          await emit(tx, {
            type: 'pick.access_granted',
            videoId: payload.videoId,
            capperId: payload.capperId,
            postedEventId: payload.eventId,
            granted,
          });
        }
      });
    },
  };
}

export function handlePickAccess(jobs: JobRunner, billing: RecurringBilling | undefined): void {
  jobs.handle(pickAccessJob, pickAccessHandler(billing));
}

/**
 * A condition on `user` (an SQL user id): they hold a subscription not ended to the pick's capper whose plan
 * covers the pick, so its grant (this feature's job) is theirs to expect. A new pick's followers' e-mail and
 * push leave them to the subscribers' alert, which carries the pick.
 */
export function subscriptionCovers(user: SQL, videoId: number): SQL {
  // Aliases of their own: `user` may name a column of the caller's `s`; the league test needs picks as `p`.
  return sql`exists (select 1 from picks p
    join subscriptions cover_s on cover_s.capper_id = p.user_id and cover_s.subscriber_id = ${user}
      and cover_s.status <> 'ended'
    join subscription_plans cover_sp on cover_sp.id = cover_s.plan_id
    where p.video_id = ${videoId} and ${inPlanLeagues(sql`cover_sp.leagues`)})`;
}
