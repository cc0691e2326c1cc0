import { createHash, randomBytes } from 'node:crypto';
import { and, eq, notInArray, sql } from '#server/db/drizzle.js';
import type { Db } from '../db/client.js';
import { paymentIntents, sandboxClock } from '../db/schema.js';
import {
  PRICE_CHANGED_BEFORE_PAYMENT,
  type SandboxConfirm,
  type SandboxConfirmResponse,
} from '#common/schemas/payments.js';
import { conflict } from '../lib/http-errors.js';
import {
  CLOSED_INTENT_STATUSES,
  type CardInput,
  type PaymentProvider,
  type ProviderIntent,
  type RecurringBilling,
  type SandboxCardForm,
} from './provider.js';

/**
 * The built-in provider for running PickReel with no Stripe account: intents live in the database and the
 * card form follows Stripe's test cards. Nothing is ever charged.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  readonly sandbox: SandboxCardForm = { confirm: (input, buyerId) => this.confirm(input, buyerId) };

  readonly billing: RecurringBilling = {
    now: () => this.now(),
    attachCard: async (card) => this.attachCard(card),
    charge: async (params) => this.charge(params),
    testClock: { advance: (seconds) => this.advanceClock(seconds) },
  };

  constructor(private readonly db: Db) {}

  /** The test clock: the wall clock plus the stored offset, so every instance on the database agrees. */
  async now(): Promise<Date> {
    const [row] = await this.db.select().from(sandboxClock).limit(1);
    return new Date(Date.now() + (row?.offsetSeconds ?? 0) * 1000);
  }

  async advanceClock(seconds: number): Promise<Date> {
    await this.db
      .insert(sandboxClock)
      .values({ id: 1, offsetSeconds: seconds })
      .onConflictDoUpdate({
        target: sandboxClock.id,
        set: { offsetSeconds: sql`${sandboxClock.offsetSeconds} + ${seconds}` },
      });
    return this.now();
  }

  /**
   * As Stripe's test cards: a card that declines is refused here; 4000000000000341 is saved but every
   * charge on it fails. The outcome rides in the payment method's id (nothing of the card is stored).
   */
  attachCard(card: CardInput): { paymentMethodId: string; last4: string } | { error: string } {
    const number = card.number.replace(/[\s-]/g, '');
    const problem = cardProblem(card, new Date());
    if (problem) return { error: problem };
    const fails = number === CHARGES_FAIL_CARD;
    const last4 = number.slice(-4);
    return {
      paymentMethodId: `pm_sandbox_${fails ? 'fails' : 'ok'}_${randomBytes(8).toString('hex')}`,
      last4,
    };
  }

  charge(params: {
    paymentMethodId: string;
    idempotencyKey: string;
  }): { status: 'succeeded'; chargeId: string } | { status: 'failed'; message: string } {
    if (params.paymentMethodId.startsWith('pm_sandbox_fails_'))
      return { status: 'failed', message: 'Your card was declined.' };
    const digest = createHash('sha256').update(params.idempotencyKey).digest('hex').slice(0, 24);
    return { status: 'succeeded', chargeId: `ch_sandbox_${digest}` };
  }

  /** Ids shaped like Stripe's; the payments service records the intent, as it does for Stripe. */
  async createIntent() {
    const id = `pi_sandbox_${randomBytes(12).toString('hex')}`;
    return { id, clientSecret: `${id}_secret_${randomBytes(16).toString('hex')}` };
  }

  async retrieveIntent(id: string): Promise<ProviderIntent | undefined> {
    const [row] = await this.db.select().from(paymentIntents).where(eq(paymentIntents.id, id)).limit(1);
    if (!row || row.provider !== this.name) return undefined;
    return {
      id: row.id,
      status: row.status,
      amountCents: row.amountCents,
      currency: row.currency,
      videoId: row.videoId,
      buyerId: row.buyerId,
      // The sandbox's confirmation is the last change of a succeeded intent's row.
      succeededAt: row.status === 'succeeded' ? row.updatedAt : null,
    };
  }

  /** As Stripe: an open intent becomes canceled; a paid or canceled one stays as it is. */
  async cancelIntent(id: string): Promise<boolean> {
    await this.db
      .update(paymentIntents)
      .set({ status: 'canceled', updatedAt: new Date() })
      .where(and(eq(paymentIntents.id, id), notInArray(paymentIntents.status, CLOSED_INTENT_STATUSES)));
    return (await this.retrieveIntent(id))?.status === 'canceled';
  }

  /** Nothing was charged: the payments service marking the intent refunded is the whole refund. */
  async refundIntent(): Promise<void> {}

  /**
   * What Stripe.js's confirmCardPayment would do, for the sandbox card form. Only an open intent can be paid,
   * and the change to 'succeeded' is conditional on it still being open, so a price change's cancel and a
   * payment cannot both win.
   */
  async confirm(input: SandboxConfirm, buyerId: number): Promise<SandboxConfirmResponse | undefined> {
    const [row] = await this.db
      .select()
      .from(paymentIntents)
      .where(eq(paymentIntents.clientSecret, input.clientSecret))
      .limit(1);
    if (!row || row.provider !== this.name || row.buyerId !== buyerId) return undefined;
    if (row.status === 'succeeded' || row.status === 'refunded')
      return { status: 'succeeded', paymentIntentId: row.id };
    if (row.status === 'canceled') throw conflict(row.lastError ?? PRICE_CHANGED_BEFORE_PAYMENT);
    const problem = cardProblem(input.card, new Date());
    const status = problem ? 'requires_payment_method' : 'succeeded';
    const [changed] = await this.db
      .update(paymentIntents)
      .set({ status, lastError: problem ?? null, updatedAt: new Date() })
      .where(and(eq(paymentIntents.id, row.id), notInArray(paymentIntents.status, CLOSED_INTENT_STATUSES)))
      .returning({ id: paymentIntents.id });
    if (!changed) return this.confirm(input, buyerId); // closed meanwhile: answer what it is now
    return problem
      ? { status, paymentIntentId: row.id, error: { message: problem } }
      : { status, paymentIntentId: row.id };
  }
}

/** Stripe's test card that can be saved but whose charges fail. */
const CHARGES_FAIL_CARD = '4000000000000341';

/** Stripe's test-card behaviour: the numbers a developer already knows. */
const TEST_CARD_OUTCOMES: Record<string, string> = {
  '4000000000000002': 'Your card was declined.',
  '4000000000009995': 'Your card has insufficient funds.',
  '4000000000009987': 'Your card was declined.',
  '4000000000000069': 'Your card has expired.',
  '4000000000000127': "Your card's security code is incorrect.",
  '4000000000000119': 'An error occurred while processing your card. Try again in a little bit.',
};

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function cardProblem(card: SandboxConfirm['card'], now: Date): string | undefined {
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) return 'Your card number is incorrect.';
  if (card.expMonth < 1 || card.expMonth > 12) return "Your card's expiration month is invalid.";
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  const endOfMonth = new Date(Date.UTC(year, card.expMonth, 1));
  if (endOfMonth <= now) return "Your card's expiration year is in the past.";
  if (!/^\d{3,4}$/.test(card.cvc)) return "Your card's security code is incomplete.";
  return TEST_CARD_OUTCOMES[number];
}
