import { sql } from '#server/db/drizzle.js';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '#server/db/rows.js';
import { StripeProvider } from '#server/payments/stripe-provider.js';
import { createVideo } from '../setup/fixtures.js';
import { startStripeStandIn, succeed, type StripeStandIn } from '../setup/stripe-stand-in.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';

const WEBHOOK_SECRET = 'whsec_test_secret_for_pickreel';
let t: TestApp;
let stripe: StripeStandIn;
let ip = 0;
const nextIp = () => `10.6.0.${++ip}`;
const signer = new Stripe('sk_test_signer');

beforeAll(async () => {
  stripe = await startStripeStandIn();
  t = await createTestApp({
    paymentProvider: new StripeProvider({
      secretKey: 'sk_test_pickreel',
      webhookSecret: WEBHOOK_SECRET,
      apiBase: { host: '127.0.0.1', port: stripe.port, protocol: 'http' },
    }),
  });
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const post = (url: string, payload: object, cookie?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} });

async function count(query: ReturnType<typeof sql>): Promise<number> {
  return Number(rowsOf<{ n: number }>(await t.database.db.execute(query))[0]!.n);
}

async function setUp(priceCents = 1500) {
  const capper = await registerUser(t.app, {}, nextIp());
  const buyer = await registerUser(t.app, {}, nextIp());
  const video = await createVideo(t, capper.id, { priceCents });
  const intent = await post('/api/create-payment-intent', { videoId: video.id }, buyer.cookie);
  expect(intent.statusCode, intent.body).toBe(200);
  return { capper, buyer, video, intent: intent.json() as { paymentIntentId: string; clientSecret: string } };
}

function webhook(event: object, options: { timestamp?: number; tamper?: boolean } = {}) {
  const payload = JSON.stringify(event);
  const signature = signer.webhooks.generateTestHeaderString({
    payload,
    secret: WEBHOOK_SECRET,
    ...(options.timestamp ? { timestamp: options.timestamp } : {}),
  });
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    payload: options.tamper ? payload.replace('"livemode":false', '"livemode":true') : payload,
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signature,
      'sec-fetch-site': 'cross-site',
    },
  });
}

const succeededEvent = (id: string, intentId: string) => ({
  id,
  object: 'event',
  type: 'payment_intent.succeeded',
  livemode: false,
  data: { object: stripe.intents.get(intentId) },
});

describe('Stripe provider', () => {
  it('creates the intent at the database price with video and buyer in its metadata, once per buyer and video', async () => {
    const { buyer, video, intent } = await setUp(2599);
    const created = stripe.intents.get(intent.paymentIntentId)!;
    expect(created).toMatchObject({
      amount: 2599,
      currency: 'usd',
      metadata: { videoId: String(video.id), buyerId: String(buyer.id) },
    });
    expect(intent.clientSecret).toBe(created.client_secret);
    const again = (await post('/api/create-payment-intent', { videoId: video.id }, buyer.cookie)).json();
    expect(again.paymentIntentId).toBe(intent.paymentIntentId);
  });

  it('records the purchase only once Stripe says the payment succeeded', async () => {
    const { buyer, video, intent } = await setUp();
    const early = await post(
      '/api/payment-complete',
      { paymentIntentId: intent.paymentIntentId, videoId: video.id },
      buyer.cookie,
    );
    expect(early.statusCode).toBe(402);
    succeed(stripe.intents.get(intent.paymentIntentId)!);
    const done = await post(
      '/api/payment-complete',
      { paymentIntentId: intent.paymentIntentId, videoId: video.id },
      buyer.cookie,
    );
    expect(done.statusCode).toBe(200);
    expect(
      await count(
        sql`select count(*) as n from purchases where payment_intent_id = ${intent.paymentIntentId}`,
      ),
    ).toBe(1);
  });

  it('refuses a payment whose amount or currency is not the one asked for', async () => {
    const { buyer, video, intent } = await setUp(1500);
    const remote = stripe.intents.get(intent.paymentIntentId)!;
    succeed(remote);
    remote.amount_received = 100;
    const wrongAmount = await post(
      '/api/payment-complete',
      { paymentIntentId: intent.paymentIntentId, videoId: video.id },
      buyer.cookie,
    );
    expect(wrongAmount.statusCode).toBe(400);
    remote.amount_received = 1500;
    remote.currency = 'eur';
    const wrongCurrency = await post(
      '/api/payment-complete',
      { paymentIntentId: intent.paymentIntentId, videoId: video.id },
      buyer.cookie,
    );
    expect(wrongCurrency.statusCode).toBe(400);
    expect(
      await count(
        sql`select count(*) as n from purchases where payment_intent_id = ${intent.paymentIntentId}`,
      ),
    ).toBe(0);
  });
});

describe('Stripe webhook', () => {
  it('records a purchase from payment_intent.succeeded even if the browser never calls back, once', async () => {
    const { buyer, intent } = await setUp();
    succeed(stripe.intents.get(intent.paymentIntentId)!);
    const event = succeededEvent('evt_success_1', intent.paymentIntentId);
    const first = await webhook(event);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true });
    const replay = await webhook(event);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect(await count(sql`select count(*) as n from purchases where user_id = ${buyer.id}`)).toBe(1);
  });

  it('handles an event delivered twice at once only once, and records it once', async () => {
    const { buyer, intent } = await setUp();
    succeed(stripe.intents.get(intent.paymentIntentId)!);
    const retrieves = () =>
      stripe.requests.filter(
        (r) => r.method === 'GET' && r.path === `/v1/payment_intents/${intent.paymentIntentId}`,
      ).length;
    const before = retrieves();
    const event = succeededEvent('evt_concurrent_1', intent.paymentIntentId);
    const answers = await Promise.all([webhook(event), webhook(event)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    // One delivery handled it; the other was told it is a duplicate, without asking Stripe again.
    expect(answers.map((answer) => answer.json())).toEqual(
      expect.arrayContaining([{ received: true }, { received: true, duplicate: true }]),
    );
    expect(retrieves() - before).toBe(1);
    expect(await count(sql`select count(*) as n from purchases where user_id = ${buyer.id}`)).toBe(1);
    expect(await count(sql`select count(*) as n from webhook_events where id = 'evt_concurrent_1'`)).toBe(1);
  });

  it("records an event only once handled, so Stripe's retry after a failed delivery is handled", async () => {
    const { buyer, intent } = await setUp(1500);
    const remote = stripe.intents.get(intent.paymentIntentId)!;
    succeed(remote);
    remote.amount_received = 100;
    const event = succeededEvent('evt_retry_1', intent.paymentIntentId);
    const failed = await webhook(event);
    expect(failed.statusCode).toBe(400);
    expect(await count(sql`select count(*) as n from webhook_events where id = 'evt_retry_1'`)).toBe(0);
    remote.amount_received = 1500;
    const retried = await webhook(event);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toEqual({ received: true });
    expect(await count(sql`select count(*) as n from purchases where user_id = ${buyer.id}`)).toBe(1);
  });

  it('refuses a tampered body, a stale signature and a missing one', async () => {
    const { buyer, intent } = await setUp();
    succeed(stripe.intents.get(intent.paymentIntentId)!);
    const tampered = await webhook(succeededEvent('evt_tampered', intent.paymentIntentId), { tamper: true });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json()).toEqual({ message: 'Invalid Stripe signature.' });
    const stale = await webhook(succeededEvent('evt_stale', intent.paymentIntentId), {
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect(stale.statusCode).toBe(400);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      payload: succeededEvent('evt_unsigned', intent.paymentIntentId),
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await count(sql`select count(*) as n from purchases where user_id = ${buyer.id}`)).toBe(0);
  });

  it('revokes the purchase and the sale on charge.refunded', async () => {
    const { buyer, capper, video, intent } = await setUp();
    succeed(stripe.intents.get(intent.paymentIntentId)!);
    await post(
      '/api/payment-complete',
      { paymentIntentId: intent.paymentIntentId, videoId: video.id },
      buyer.cookie,
    );
    expect(await count(sql`select count(*) as n from sales where seller_id = ${capper.id}`)).toBe(1);
    const refund = await webhook({
      id: 'evt_refund_1',
      object: 'event',
      type: 'charge.refunded',
      livemode: false,
      data: { object: { id: 'ch_1', object: 'charge', payment_intent: intent.paymentIntentId } },
    });
    expect(refund.statusCode).toBe(200);
    expect(await count(sql`select count(*) as n from purchases where user_id = ${buyer.id}`)).toBe(0);
    expect(await count(sql`select count(*) as n from sales where seller_id = ${capper.id}`)).toBe(0);
    const purchased = await t.app.inject({
      method: 'GET',
      url: `/api/videos/${video.id}/purchased`,
      headers: { cookie: buyer.cookie },
    });
    expect(purchased.json()).toEqual({ purchased: false });
  });
});
