// The catalogue of domain events: every event a service emits, with its payload. docs/events.md says who
// emits each one, in which transaction, and who subscribes. An event states a fact that has committed, in
// the product's words; a payload carries ids, never rows (a subscriber reads what it needs).

export interface EventPayloads {
  /** A pick was sealed with its video (an upload, a link, the demo's seeding). */
  'pick.posted': { videoId: number; capperId: number };
  /** A capper sealed a new version of a pick's selections or legs. */
  'pick.revised': { videoId: number; capperId: number };
  /** A pick left the record: its video deleted by its capper or an admin, or its capper deleted. */
  'pick.removed': { videoId: number; moderation: boolean };
  /** A game's result was recorded (or corrected): its legs and their picks are graded. */
  'game.settled': { eventId: number; correction: boolean };
  /** An admin graded or corrected one leg by hand, and its pick was regraded. */
  'leg.graded': { legId: number; videoId: number };
  /** The market regraded picks: legs voided by a moved start, or closing prices written after grading. */
  'picks.regraded': { videoIds: number[] };
  /** A video's public details or state changed: created, edited, processed, failed or queued again. */
  'video.changed': { videoId: number };
  /** A video and what refers to it were deleted. */
  'video.deleted': { videoId: number };
  /** A video's price changed: open payment intents at the old price must not be paid (decision 010). */
  'price.changed': { videoId: number; fromCents: number; toCents: number };
  /** A user's public profile (name, picture, bio) changed. */
  'profile.changed': { userId: number };
  /** An admin deleted a user with their videos, purchases and payouts. */
  'user.deleted': { userId: number };
  /** A bettor subscribed to a capper's plan (paid, or on a free trial). */
  /** A new pick was granted to the live subscribers its plans cover (`pick.posted`'s event, once granted). */
  'pick.access_granted': { videoId: number; capperId: number; postedEventId: number; granted: number };
  'subscription.started': { subscriptionId: number; subscriberId: number; capperId: number; trial: boolean };
  /** A subscription's period was paid: a renewal, a retry in grace, or the first charge after a trial. */
  'subscription.renewed': { subscriptionId: number; invoiceId: number };
  /** A renewal's charge failed: the subscription is past due until a retry succeeds or the grace ends. */
  'subscription.renewal_failed': { subscriptionId: number; final: boolean };
  /** A subscription ended: cancelled and its period over, its plan retired, or unpaid after the grace. */
  'subscription.ended': { subscriptionId: number; reason: 'canceled' | 'plan_retired' | 'payment_failed' };
}

export type EventType = keyof EventPayloads;

/** One event: its type and its payload's fields, side by side. */
export type EventOf<T extends EventType> = { type: T } & EventPayloads[T];

export type DomainEvent = { [T in EventType]: EventOf<T> }[EventType];
