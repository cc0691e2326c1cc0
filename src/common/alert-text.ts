// Every alert's words in one place (in the app, by e-mail, by push), so the channels cannot drift. Pure:
// callers pass what they read. A pick's alert names only its public face (capper, title, price) unless the
// caller passes the selections, which it does only for someone who can read them.
import { centsToDollars, formatPrice } from './money.js';

export interface PickFaceText {
  username: string;
  displayName: string | null;
  title: string;
  priceCents: number;
}

export const capperName = (face: { username: string; displayName: string | null }) =>
  face.displayName?.trim() || face.username;

/** A new pick, to a follower: "X posted a new pick: title — $12.99". */
export function newPickText(face: PickFaceText) {
  const name = capperName(face);
  return {
    title: `New pick from ${name}`,
    body: `${name} posted a new pick: ${face.title} — ${formatPrice(centsToDollars(face.priceCents))}`,
  };
}

/** A new pick, to a subscriber who can read it: its selections when given (mail and push), else a pointer. */
export function subscriberPickText(face: PickFaceText, selections?: string) {
  const name = capperName(face);
  const lead = `${name} posted a new pick for your subscription: ${face.title}`;
  return {
    title: `New pick from ${name} (your subscription)`,
    body: selections === undefined ? lead : `${lead}\nThe pick: ${selections}`,
  };
}

export type SubscriptionAlertKind =
  'subscription.started' | 'subscription.renewed' | 'subscription.renewal_failed' | 'subscription.ended';

export interface SubscriptionFace {
  username: string;
  displayName: string | null;
  planName: string;
}

const ENDED_BECAUSE: Record<string, string> = {
  canceled: 'you cancelled it and its period is over',
  plan_retired: 'the capper retired the plan',
  payment_failed: 'its payment failed until the grace period was over',
};

/** A subscription's news. `detail`: for started, 'trial' or null; for ended, the reason. */
export function subscriptionText(kind: SubscriptionAlertKind, detail: string | null, sub: SubscriptionFace) {
  const name = capperName(sub);
  const plan = `${name}'s ${sub.planName}`;
  switch (kind) {
    case 'subscription.started':
      return detail === 'trial'
        ? {
            title: `Your free trial of ${plan} began`,
            body: `You can read ${name}'s picks during your trial.`,
          }
        : { title: `You subscribed to ${plan}`, body: `You can read ${name}'s picks while it lasts.` };
    case 'subscription.renewed':
      return { title: `${plan} renewed`, body: `Your subscription to ${plan} was paid for another period.` };
    case 'subscription.renewal_failed':
      return {
        title: `Payment for ${plan} failed`,
        body: `We could not charge your card for ${plan}: update your card to keep reading ${name}'s picks.`,
      };
    default:
      return {
        title: `${plan} ended`,
        body: `Your subscription to ${plan} ended: ${ENDED_BECAUSE[detail ?? ''] ?? 'it is over'}.`,
      };
  }
}

export const SUBSCRIPTIONS_URL = '/subscriptions';
