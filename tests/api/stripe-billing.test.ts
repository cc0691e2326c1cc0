// Stripe Billing for capper subscriptions (docs/decisions/041), against the local Stripe stand-in: a plan's
// product and price made once; subscribing starts an incomplete subscription with a client secret (a trial:
// a setup intent); signed webhooks activate, renew, fail and end it through the same state machine as the
// sandbox, each invoice in the ledger once; cancelling and the Customer Portal go through Stripe.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeSubscribeResponse } from '#common/schemas/billing.js';
import type { Plan, Subscription } from '#common/schemas/subscriptions.js';
import type { Video } from '#common/schemas/videos.js';
import type { Db } from '#server/db/client.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { dispatchOutbox } from '#server/events/index.js';
import { DEFAULT_LANE } from '#server/jobs/index.js';
import { StripeProvider } from '#server/payments/stripe-provider.js';
import { startStripeStandIn, type StripeStandIn } from '../setup/stripe-stand-in.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { inHours, postLinkPick } from '../setup/upload-requests.js';

type User = { cookie: string; id: number; username: string };
const WEBHOOK_SECRET = 'whsec_test_billing_for_pickreel';
const DAY = 24 * 3600;
let t: TestApp;
let db: Db;
let stripe: StripeStandIn;
let ip = 0;
let game = 0;
let eventCounter = 0;
const nextIp = () => `10.40.0.${++ip}`;
const signer = new Stripe('sk_test_signer');
const user = () => registerUser(t.app, {}, nextIp());

beforeAll(async () => {
  stripe = await startStripeStandIn();
  t = await createTestApp({
    paymentProvider: new StripeProvider({
      secretKey: 'sk_test_pickreel',
      webhookSecret: WEBHOOK_SECRET,
      apiBase: { host: '127.0.0.1', port: stripe.port, protocol: 'http' },
    }),
  });
  db = t.database.db;
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const inject = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload && { payload }) });

async function createPlan(capper: User, fields: object = {}): Promise<Plan> {
  const response = await inject('POST', `/api/cappers/${capper.username}/plans`, capper.cookie, {
    name: 'NBA season',
    priceCents: 4999,
    interval: 'season',
    leagues: ['NBA'],
    ...fields,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Plan>();
}

async function startSubscription(planId: number, who: User): Promise<StripeSubscribeResponse> {
  const response = await inject('POST', `/api/plans/${planId}/subscribe/stripe`, who.cookie);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<StripeSubscribeResponse>();
}

function webhook(type: string, object: object, options: { id?: string; forge?: boolean } = {}) {
  const event = {
    id: options.id ?? `evt_billing_${++eventCounter}`,
    object: 'event',
    type,
    livemode: false,
    data: { object },
  };
  const payload = JSON.stringify(event);
  const signature = signer.webhooks.generateTestHeaderString({
    payload,
    secret: options.forge ? 'whsec_someone_else' : WEBHOOK_SECRET,
  });
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
  });
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** An invoice of the subscription as Stripe sends it: its subscription line carries the period paid for. */
function invoice(id: string, subscriptionId: string, amount: number, start: Date, days: number) {
  const end = new Date(start.getTime() + days * DAY * 1000);
  return {
    id,
    object: 'invoice',
    amount_paid: amount,
    amount_due: amount,
    period_start: seconds(start),
    period_end: seconds(start),
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: subscriptionId, metadata: {} },
    },
    lines: {
      object: 'list',
      data: [
        {
          id: `il_${id}`,
          object: 'line_item',
          amount,
          period: { start: seconds(start), end: seconds(end) },
          parent: { type: 'subscription_item_details' },
        },
      ],
    },
  };
}

async function mine(who: User): Promise<Subscription[]> {
  const response = await inject('GET', '/api/subscriptions', who.cookie);
  expect(response.statusCode).toBe(200);
  return response.json<Subscription[]>();
}

async function invoiceRows(capperId: number) {
  return rowsOf<{ charge_id: string; amount_cents: number }>(
    await db.execute(
      sql`select charge_id, amount_cents from subscription_invoices where capper_id = ${capperId} order by id`,
    ),
  ).map((row) => ({ chargeId: row.charge_id, amountCents: Number(row.amount_cents) }));
}

/** The domain events of one subscription, in order, with a failure's `final` flag. */
async function eventsOf(subscriptionId: number): Promise<string[]> {
  return rowsOf<{ type: string; final: string | null }>(
    await db.execute(
      sql`select type, payload->>'final' as final from domain_events
          where payload->>'subscriptionId' = ${String(subscriptionId)} order by id`,
    ),
  ).map((row) => (row.final === null ? row.type : `${row.type}:${row.final}`));
}

async function subscriptionEarnings(capper: User): Promise<number> {
  return (await inject('GET', '/api/user/earnings', capper.cookie)).json<{ subscriptions: number }>()
    .subscriptions;
}

async function postPick(capper: User) {
  game += 1;
  const legs = [
    {
      league: 'NBA',
      home: `Herons ${game}`,
      away: `Ibises ${game}`,
      startsAt: inHours(48),
      market: 'moneyline',
      side: `Herons ${game}`,
      odds: -110,
      units: 1,
    },
  ];
  const response = await postLinkPick(t.app, capper.cookie, legs, { emailInformation: `Billing ${game}` });
  expect(response.statusCode, response.body).toBe(201);
  await dispatchOutbox(db);
  await t.app.jobs.runUntilIdle(DEFAULT_LANE);
  return response.json<Video>().id;
}

async function reads(who: User, videoId: number): Promise<boolean> {
  const video = (await inject('GET', `/api/videos/${videoId}`, who.cookie)).json<Video>();
  return video.isPurchased === true && video.emailInformation !== undefined;
}

describe('Stripe Billing', () => {
  it("creates a plan's product and recurring price once, and sets a retired plan's price inactive", async () => {
    const capper = await user();
    const plan = await createPlan(capper);
    const priceRequests = stripe.requests.filter(
      (r) => r.path === '/v1/prices' && r.body.includes(`=${plan.id}`),
    );
    expect(priceRequests).toHaveLength(1);
    expect(priceRequests[0]!.idempotencyKey).toBe(`plan_${plan.id}_${Date.parse(plan.createdAt)}_price`);
    const price = [...stripe.billing.prices.values()].find(
      (p) => p.metadata && (p.metadata as Record<string, string>).planId === String(plan.id),
    )!;
    expect(price).toMatchObject({ unit_amount: 4999, currency: 'usd', active: true });
    // A season is 180 days (decision 037).
    expect(price.recurring).toEqual({ interval: 'day', interval_count: 180 });

    // Subscribing later reuses the stored price: no second product or price.
    const bettor = await user();
    await startSubscription(plan.id, bettor);
    expect(
      stripe.requests.filter((r) => r.path === '/v1/prices' && r.body.includes(`=${plan.id}`)),
    ).toHaveLength(1);

    const retired = await inject(
      'POST',
      `/api/cappers/${capper.username}/plans/${plan.id}/retire`,
      capper.cookie,
    );
    expect(retired.statusCode, retired.body).toBe(200);
    expect(stripe.billing.prices.get(price.id)!.active).toBe(false);
  });

  it('subscribes incomplete with the first invoice’s client secret; a signed invoice.paid activates it and enters the ledger once', async () => {
    const capper = await user();
    const bettor = await user();
    const plan = await createPlan(capper, { interval: 'month', priceCents: 1999 });
    const openPick = await postPick(capper);
    const started = await startSubscription(plan.id, bettor);
    expect(started).toMatchObject({ status: 'incomplete', intentType: 'payment' });
    expect(started.clientSecret).toMatch(/_secret_/);
    const atStripe = stripe.billing.subscriptions.get(started.providerSubscriptionId)!;
    expect(atStripe.metadata).toEqual({ planId: String(plan.id), subscriberId: String(bettor.id) });
    const create = stripe.requests.find(
      (r) => r.path === '/v1/subscriptions' && r.body.includes(`=${bettor.id}`),
    )!;
    const form = new URLSearchParams(create.body);
    expect(form.get('payment_behavior')).toBe('default_incomplete');
    expect(form.get('payment_settings[save_default_payment_method]')).toBe('on_subscription');
    expect([...form].filter(([key]) => key.startsWith('expand')).map(([, value]) => value)).toContain(
      'latest_invoice.confirmation_secret',
    );
    // Nothing is ours until Stripe says it is paid.
    expect(await mine(bettor)).toEqual([]);
    expect(await reads(bettor, openPick)).toBe(false);

    atStripe.status = 'active';
    const start = new Date();
    const paid = invoice('in_paid_first', atStripe.id, 1999, start, 30);
    const delivery = await webhook('invoice.paid', paid, { id: 'evt_paid_first' });
    expect(delivery.statusCode, delivery.body).toBe(200);
    const [subscription] = await mine(bettor);
    expect(subscription).toMatchObject({ status: 'active', plan: { id: plan.id } });
    expect(await reads(bettor, openPick)).toBe(true);
    expect(await invoiceRows(capper.id)).toEqual([{ chargeId: 'in_paid_first', amountCents: 1999 }]);
    expect(await subscriptionEarnings(capper)).toBeCloseTo(19.99);

    // The same delivery again, and the same invoice under another event id: nothing twice.
    const replay = await webhook('invoice.paid', paid, { id: 'evt_paid_first' });
    expect(replay.json()).toMatchObject({ duplicate: true });
    expect((await webhook('invoice.paid', paid)).statusCode).toBe(200);
    expect(await invoiceRows(capper.id)).toHaveLength(1);

    // The next month's invoice renews it: a second row, the period moved on.
    const next = new Date(start.getTime() + 30 * DAY * 1000);
    expect(
      (await webhook('invoice.paid', invoice('in_paid_second', atStripe.id, 1999, next, 30))).statusCode,
    ).toBe(200);
    expect(await invoiceRows(capper.id)).toHaveLength(2);
    expect((await mine(bettor))[0]!.currentPeriodEnd).toBe(
      new Date(seconds(next) * 1000 + 30 * DAY * 1000).toISOString(),
    );
  });

  it('a failed renewal is past due with the grace; deletion ends it and new picks stop', async () => {
    const capper = await user();
    const bettor = await user();
    const plan = await createPlan(capper, { interval: 'week', priceCents: 500 });
    const started = await startSubscription(plan.id, bettor);
    const atStripe = stripe.billing.subscriptions.get(started.providerSubscriptionId)!;
    atStripe.status = 'active';
    const start = new Date();
    await webhook('invoice.paid', invoice('in_week_1', atStripe.id, 500, start, 7));

    const failed = await webhook('invoice.payment_failed', invoice('in_week_2', atStripe.id, 0, start, 7));
    expect(failed.statusCode, failed.body).toBe(200);
    const [pastDue] = await mine(bettor);
    expect(pastDue!.status).toBe('past_due');
    expect(pastDue!.accessUntil).toBe(new Date(seconds(start) * 1000 + 3 * DAY * 1000).toISOString());
    // In grace, a new pick still reaches them.
    expect(await reads(bettor, await postPick(capper))).toBe(true);

    atStripe.status = 'canceled';
    const deleted = await webhook('customer.subscription.deleted', atStripe);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const [ended] = await mine(bettor);
    expect(ended).toMatchObject({ status: 'ended', accessUntil: null });
    expect(await reads(bettor, await postPick(capper))).toBe(false);
    expect(await eventsOf(ended!.id)).toEqual([
      'subscription.started',
      'subscription.renewal_failed:false',
      'subscription.renewal_failed:true',
      'subscription.ended',
    ]);
    // Only the one paid week is revenue.
    expect(await invoiceRows(capper.id)).toEqual([{ chargeId: 'in_week_1', amountCents: 500 }]);
  });

  it('customer.subscription.updated follows cancel_at_period_end and the period', async () => {
    const capper = await user();
    const bettor = await user();
    const plan = await createPlan(capper, { interval: 'month', priceCents: 999 });
    const started = await startSubscription(plan.id, bettor);
    const atStripe = stripe.billing.subscriptions.get(started.providerSubscriptionId)!;
    atStripe.status = 'active';
    const changed = await webhook('customer.subscription.updated', {
      ...atStripe,
      cancel_at_period_end: true,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const [canceled] = await mine(bettor);
    expect(canceled).toMatchObject({ status: 'canceled', nextRenewal: null });
    expect(canceled!.accessUntil).toBe(
      new Date(atStripe.items.data[0]!.current_period_end * 1000).toISOString(),
    );
    // Resumed from the portal.
    await webhook('customer.subscription.updated', { ...atStripe, cancel_at_period_end: false });
    expect((await mine(bettor))[0]!.status).toBe('active');
  });

  it('refuses a forged signature with 400 and changes nothing', async () => {
    const capper = await user();
    const bettor = await user();
    const plan = await createPlan(capper, { interval: 'month', priceCents: 999 });
    const started = await startSubscription(plan.id, bettor);
    stripe.billing.subscriptions.get(started.providerSubscriptionId)!.status = 'active';
    const forged = await webhook(
      'invoice.paid',
      invoice('in_forged', started.providerSubscriptionId, 999, new Date(), 30),
      {
        forge: true,
      },
    );
    expect(forged.statusCode).toBe(400);
    expect(await mine(bettor)).toEqual([]);
    expect(await invoiceRows(capper.id)).toEqual([]);
  });

  it('cancelling through our API sets cancel_at_period_end at Stripe and keeps access to the period end', async () => {
    const capper = await user();
    const bettor = await user();
    const plan = await createPlan(capper, { interval: 'month', priceCents: 1500 });
    const started = await startSubscription(plan.id, bettor);
    const atStripe = stripe.billing.subscriptions.get(started.providerSubscriptionId)!;
    atStripe.status = 'active';
    await webhook('invoice.paid', invoice('in_cancel_1', atStripe.id, 1500, new Date(), 30));
    const [subscription] = await mine(bettor);

    const response = await inject('POST', `/api/subscriptions/${subscription!.id}/cancel`, bettor.cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(atStripe.cancel_at_period_end).toBe(true);
    expect(response.json<Subscription>()).toMatchObject({
      status: 'canceled',
      accessUntil: subscription!.currentPeriodEnd,
    });
    // Someone else's: 404, nothing sent to Stripe.
    const stranger = await user();
    expect(
      (await inject('POST', `/api/subscriptions/${subscription!.id}/cancel`, stranger.cookie)).statusCode,
    ).toBe(404);
  });

  it('opens a Customer Portal session returning to /subscriptions', async () => {
    const capper = await user();
    const bettor = await user();
    const none = await inject('POST', '/api/billing/portal', bettor.cookie);
    expect(none.statusCode).toBe(404);
    const plan = await createPlan(capper, { interval: 'month', priceCents: 999 });
    await startSubscription(plan.id, bettor);
    const response = await inject('POST', '/api/billing/portal', bettor.cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ url: string }>().url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\//);
    const request = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)!;
    expect(new URLSearchParams(request.body).get('return_url')).toMatch(/\/subscriptions$/);
    expect((await inject('POST', '/api/billing/portal')).statusCode).toBe(401);
  });

  it('a trial uses the setup intent path, once per bettor and capper', async () => {
    const capper = await user();
    const bettor = await user();
    const plan = await createPlan(capper, { interval: 'month', priceCents: 999, trialDays: 7 });
    const started = await startSubscription(plan.id, bettor);
    expect(started).toMatchObject({ status: 'trialing', intentType: 'setup' });
    expect(started.clientSecret).toMatch(/^seti_/);
    const atStripe = stripe.billing.subscriptions.get(started.providerSubscriptionId)!;
    const created = await webhook('customer.subscription.created', atStripe);
    expect(created.statusCode, created.body).toBe(200);
    const [trialing] = await mine(bettor);
    expect(trialing).toMatchObject({ status: 'trialing' });
    expect(trialing!.trialEnd).toBe(new Date(atStripe.trial_end! * 1000).toISOString());
    // The trial's $0 invoice is no revenue.
    await webhook('invoice.paid', invoice('in_trial_zero', atStripe.id, 0, new Date(), 7));
    expect(await invoiceRows(capper.id)).toEqual([]);

    // Another plan of the same capper: no second trial.
    const other = await createPlan(capper, {
      name: 'Weekly',
      interval: 'week',
      priceCents: 500,
      trialDays: 7,
    });
    const again = await startSubscription(other.id, bettor);
    expect(again).toMatchObject({ status: 'incomplete', intentType: 'payment' });
  });

  it('keeps the test clock sandbox-only: Stripe has its own, the webhooks drive these tests', async () => {
    const admin = await user();
    await db.execute(sql`update users set is_admin = true where id = ${admin.id}`);
    t.app.sessions.invalidateUser(admin.id);
    const clock = await inject('POST', '/api/payments/sandbox/clock', admin.cookie, { advanceSeconds: 60 });
    expect(clock.statusCode, clock.body).toBe(404);
  });

  it('refreshes a confirmed subscription from Stripe at once, for its subscriber only', async () => {
    const capper = await user();
    const bettor = await user();
    const plan = await createPlan(capper, { interval: 'month', priceCents: 1250 });
    const started = await startSubscription(plan.id, bettor);
    const url = `/api/billing/subscriptions/${started.providerSubscriptionId}/refresh`;
    // Not paid yet: nothing written.
    expect((await inject('POST', url, bettor.cookie)).statusCode).toBe(409);
    stripe.billing.subscriptions.get(started.providerSubscriptionId)!.status = 'active';
    expect((await inject('POST', url, (await user()).cookie)).statusCode).toBe(404);
    const refreshed = await inject('POST', url, bettor.cookie);
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(refreshed.json<Subscription>()).toMatchObject({ status: 'active', plan: { id: plan.id } });
    // The invoice's webhook then adds the revenue, and does not start it twice.
    await webhook(
      'invoice.paid',
      invoice('in_refresh_1', started.providerSubscriptionId, 1250, new Date(), 30),
    );
    expect(await mine(bettor)).toHaveLength(1);
    expect(await invoiceRows(capper.id)).toEqual([{ chargeId: 'in_refresh_1', amountCents: 1250 }]);
    expect(await eventsOf(refreshed.json<Subscription>().id)).toEqual(['subscription.started']);
    expect(
      (await inject('POST', '/api/billing/subscriptions/not-an-id/refresh', bettor.cookie)).statusCode,
    ).toBe(400);
  });
});
