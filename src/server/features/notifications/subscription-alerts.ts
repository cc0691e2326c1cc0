// A subscription's news to its subscriber (docs/decisions/040): started (trial or paid), renewed, a renewal
// failed (past due) and ended. One alert per event: the durable subscriber's handler writes the
// in-app row, queues the e-mail and the push in the dispatcher's transaction, which also records its progress.
import { subscriptionText, SUBSCRIPTIONS_URL, type SubscriptionAlertKind } from '#common/alert-text.js';
import type { Tx } from '#server/db/client.js';
import { afterCommit } from '#server/db/after-commit.js';
import { sql } from '#server/db/drizzle.js';
import type { DurableSubscriber, StoredEvent } from '#server/events/index.js';
import { queuePushMessage } from '../push/index.js';
import { wantsAlert } from './alert-preferences.js';
import { ALERT_MAX_AGE_MS } from './follower-alerts.js';
import { queueSubscriptionMail, type AlertMailSettings } from './mail-alerts.js';
import { eventTime, insertSubscriptionAlert, subscriptionFace } from './notifications-repository.js';
import type { UnreadStreams } from './unread-streams.js';

const TYPES: SubscriptionAlertKind[] = [
  'subscription.started',
  'subscription.renewed',
  'subscription.renewal_failed',
  'subscription.ended',
];

/** What the event adds to its words: a trial, a final failure, why it ended. */
function detailOf(event: StoredEvent<SubscriptionAlertKind>): string | null {
  switch (event.type) {
    case 'subscription.started':
      return (event as StoredEvent<'subscription.started'>).trial ? 'trial' : null;
    case 'subscription.ended':
      return (event as StoredEvent<'subscription.ended'>).reason;
    default:
      return null;
  }
}

export function alertSubscriptionChanges(
  streams: UnreadStreams,
  mail: AlertMailSettings | undefined,
  now: () => Date = () => new Date(),
): DurableSubscriber<SubscriptionAlertKind> {
  return {
    name: 'notifications.subscription-alerts',
    types: TYPES,
    handle: async (event: StoredEvent<SubscriptionAlertKind>, tx: Tx) => {
      const at = await eventTime(tx, event.id);
      if (!at || now().getTime() - at.getTime() > ALERT_MAX_AGE_MS) return;
      // A final failure ends the subscription in the same transaction: its `ended` alert says so, once.
      if (event.type === 'subscription.renewal_failed' && (event as StoredEvent<typeof event.type>).final)
        return;
      const face = await subscriptionFace(tx, event.subscriptionId);
      if (!face) return;
      const alert = {
        eventId: event.id,
        kind: event.type,
        subscriptionId: event.subscriptionId,
        userId: face.subscriberId,
        capperId: face.capperId,
        detail: detailOf(event),
      };
      await insertSubscriptionAlert(tx, alert);
      if (mail) await queueSubscriptionMail(tx, alert, face, mail);
      const text = subscriptionText(alert.kind, alert.detail, face);
      await queuePushMessage(
        tx,
        {
          eventId: event.id,
          message: { ...text, url: SUBSCRIPTIONS_URL, tag: `subscription-${event.subscriptionId}` },
        },
        (user) =>
          sql`${user} = ${face.subscriberId} and ${wantsAlert(user, 'push', 'subscription', face.capperId)}`,
      );
      await afterCommit(tx, () => streams.userChanged(face.subscriberId));
    },
  };
}
