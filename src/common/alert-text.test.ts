import { describe, expect, it } from 'vitest';
import { newPickText, subscriberPickText, subscriptionText } from './alert-text.js';

const face = { username: 'sam', displayName: ' Sharp Sam ', title: 'Friday special', priceCents: 1299 };
const plan = { username: 'sam', displayName: null, planName: 'NBA monthly' };

describe('alert text', () => {
  it("words a follower's new pick by its public face only", () => {
    expect(newPickText(face)).toEqual({
      title: 'New pick from Sharp Sam',
      body: 'Sharp Sam posted a new pick: Friday special — $12.99',
    });
  });

  it("gives a subscriber's alert the selections only when they are passed", () => {
    expect(subscriberPickText(face).body).toBe(
      'Sharp Sam posted a new pick for your subscription: Friday special',
    );
    expect(subscriberPickText(face, 'Zebras -3').body).toBe(
      'Sharp Sam posted a new pick for your subscription: Friday special\nThe pick: Zebras -3',
    );
  });

  it("words a subscription's news, by its detail", () => {
    expect(subscriptionText('subscription.started', 'trial', plan).title).toBe(
      "Your free trial of sam's NBA monthly began",
    );
    expect(subscriptionText('subscription.started', null, plan).title).toBe(
      "You subscribed to sam's NBA monthly",
    );
    expect(subscriptionText('subscription.renewal_failed', null, plan).body).toContain('update your card');
    expect(subscriptionText('subscription.ended', 'plan_retired', plan).body).toBe(
      "Your subscription to sam's NBA monthly ended: the capper retired the plan.",
    );
  });
});
