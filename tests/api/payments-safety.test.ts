// Keeping its word on money: one open intent per buyer and video, a price change never bypassed
// nor charged differently than shown, a payment that unlocks nothing refunded (visibly to the buyer and in
// the admin's audit log), and a ledger that never pays out money that is not there. Both providers.
import { sql } from '#server/db/drizzle.js';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bonusTooLowMessage } from '#common/schemas/admin.js';
import { negativeBalanceMessage } from '#common/schemas/earnings.js';
import {
  PRICE_CHANGED_BEFORE_PAYMENT,
  refundMessage,
  type PaymentIntentResponse,
  type Refund,
} from '#common/schemas/payments.js';
import { buildApp } from '#server/app.js';
import { paymentIntents } from '#server/db/schema.js';
import { rowsOf } from '#server/db/rows.js';
import { StripeProvider } from '#server/payments/stripe-provider.js';
import { createVideo } from '../setup/fixtures.js';
import { startStripeStandIn, succeed, type StripeStandIn } from '../setup/stripe-stand-in.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';

const WEBHOOK_SECRET = 'whsec_test_secret_for_pickreel_money';
const CARD = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2099, cvc: '123' };
const signer = new Stripe('sk_test_signer');

let sandbox: TestApp;
let stripeApp: TestApp;
let stripe: StripeStandIn;
let ip = 0;
const nextIp = () => `10.11.${Math.floor(++ip / 250)}.${ip % 250}`;
type Person = { cookie: string; id: number };

beforeAll(async () => {
  stripe = await startStripeStandIn();
  sandbox = await createTestApp();
  stripeApp = await createTestApp({
    paymentProvider: new StripeProvider({
      secretKey: 'sk_test_pickreel',
      webhookSecret: WEBHOOK_SECRET,
      apiBase: { host: '127.0.0.1', port: stripe.port, protocol: 'http' },
    }),
  });
});
afterAll(async () => {
  await sandbox?.close();
  await stripeApp?.close();
  await stripe?.close();
});

function client(app: FastifyInstance) {
  return {
    post: (url: string, payload: object, cookie?: string) =>
      app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} }),
    patch: (url: string, payload: object, cookie?: string) =>
      app.inject({ method: 'PATCH', url, payload, headers: cookie ? { cookie } : {} }),
    get: (url: string, cookie?: string) =>
      app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} }),
  };
}

async function count(t: TestApp, query: ReturnType<typeof sql>): Promise<number> {
  return Number(rowsOf<{ n: number }>(await t.database.db.execute(query))[0]!.n);
}

const openIntents = (t: TestApp, buyerId: number, videoId: number) =>
  count(
    t,
    sql`select count(*) as n from payment_intents where buyer_id = ${buyerId} and video_id = ${videoId}
        and status not in ('succeeded', 'canceled', 'refunded')`,
  );

async function people(t: TestApp) {
  const capper = await registerUser(t.app, {}, nextIp());
  const buyer = await registerUser(t.app, {}, nextIp());
  return { capper, buyer };
}

async function makeAdmin(t: TestApp): Promise<Person> {
  const admin = await registerUser(t.app, {}, nextIp());
  await t.database.db.execute(sql`update users set is_admin = true where id = ${admin.id}`);
  t.app.sessions.invalidateUser(admin.id);
  return admin;
}

async function createIntent(t: TestApp, buyer: Person, videoId: number): Promise<PaymentIntentResponse> {
  const response = await client(t.app).post('/api/create-payment-intent', { videoId }, buyer.cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function webhook(event: object) {
  const payload = JSON.stringify(event);
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  return stripeApp.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
  });
}

let eventCounter = 0;
const succeededEvent = (intentId: string) => ({
  id: `evt_money_${++eventCounter}`,
  object: 'event',
  type: 'payment_intent.succeeded',
  livemode: false,
  data: { object: stripe.intents.get(intentId) },
});
const refundedEvent = (intentId: string) => ({
  id: `evt_money_${++eventCounter}`,
  object: 'event',
  type: 'charge.refunded',
  livemode: false,
  data: { object: { id: `ch_${eventCounter}`, object: 'charge', payment_intent: intentId } },
});

describe('one open intent per buyer and video', () => {
  for (const provider of ['sandbox', 'stripe'] as const) {
    it(`answers 20 concurrent checkouts with one intent (${provider})`, async () => {
      const t = provider === 'sandbox' ? sandbox : stripeApp;
      const { capper, buyer } = await people(t);
      const video = await createVideo(t, capper.id, { priceCents: 999 });
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          client(t.app).post('/api/create-payment-intent', { videoId: video.id }, buyer.cookie),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array.from({ length: 20 }, () => 200));
      const secrets = new Set(responses.map((r) => r.json<PaymentIntentResponse>().clientSecret));
      expect(secrets.size).toBe(1);
      expect(responses[0]!.json()).toMatchObject({ amount: 9.99, provider });
      expect(await openIntents(t, buyer.id, video.id)).toBe(1);
    });
  }

  it('agrees on one intent across two server instances over one database (the unique index)', async () => {
    const { capper, buyer } = await people(sandbox);
    const video = await createVideo(sandbox, capper.id);
    // A second app: its own in-process lock, the same database, as a second server would be.
    const second = await buildApp({ config: sandbox.config, database: sandbox.database, clientDir: null });
    await second.ready();
    try {
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          client(i % 2 === 0 ? sandbox.app : second).post(
            '/api/create-payment-intent',
            { videoId: video.id },
            buyer.cookie,
          ),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array.from({ length: 20 }, () => 200));
      expect(new Set(responses.map((r) => r.json<PaymentIntentResponse>().clientSecret)).size).toBe(1);
      expect(await openIntents(sandbox, buyer.id, video.id)).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('refuses a second open intent for the same buyer and video in the database itself', async () => {
    const { capper, buyer } = await people(sandbox);
    const video = await createVideo(sandbox, capper.id);
    const row = { provider: 'sandbox', videoId: video.id, buyerId: buyer.id, amountCents: video.priceCents };
    await sandbox.database.db
      .insert(paymentIntents)
      .values({ ...row, id: `pi_sandbox_dup_a_${video.id}`, clientSecret: `dup_a_${video.id}` });
    await expect(
      sandbox.database.db
        .insert(paymentIntents)
        .values({ ...row, id: `pi_sandbox_dup_b_${video.id}`, clientSecret: `dup_b_${video.id}` }),
    ).rejects.toThrow();
  });

  it('gives a Stripe intent canceled by a price change a new idempotency key, so the new price gets a new intent', async () => {
    const { capper, buyer } = await people(stripeApp);
    const video = await createVideo(stripeApp, capper.id, { priceCents: 1500 });
    const first = await createIntent(stripeApp, buyer, video.id);
    await client(stripeApp.app).patch(`/api/videos/${video.id}`, { price: 20 }, capper.cookie);
    await client(stripeApp.app).patch(`/api/videos/${video.id}`, { price: 15 }, capper.cookie);
    const again = await createIntent(stripeApp, buyer, video.id);
    expect(again.amount).toBe(15);
    expect(again.paymentIntentId).not.toBe(first.paymentIntentId);
    expect(stripe.intents.get(first.paymentIntentId)!.status).toBe('canceled');
    expect(stripe.intents.get(again.paymentIntentId)!.status).toBe('requires_payment_method');
  });
});

describe('a price change and open intents', () => {
  it('sandbox: an intent at the old price cannot be paid; the buyer is told and the new intent is at the new price', async () => {
    const { capper, buyer } = await people(sandbox);
    const video = await createVideo(sandbox, capper.id, { priceCents: 100 });
    const api = client(sandbox.app);
    const old = await createIntent(sandbox, buyer, video.id);
    expect(old.amount).toBe(1);

    // The same price again changes nothing.
    expect((await api.patch(`/api/videos/${video.id}`, { price: 1 }, capper.cookie)).statusCode).toBe(200);
    expect(await openIntents(sandbox, buyer.id, video.id)).toBe(1);

    const change = await api.patch(`/api/videos/${video.id}`, { price: 99 }, capper.cookie);
    expect(change.statusCode, change.body).toBe(200);
    const confirm = await api.post(
      '/api/payments/sandbox/confirm',
      { clientSecret: old.clientSecret, card: CARD },
      buyer.cookie,
    );
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json()).toEqual({ message: PRICE_CHANGED_BEFORE_PAYMENT });
    const complete = await api.post(
      '/api/payment-complete',
      { paymentIntentId: old.paymentIntentId, videoId: video.id },
      buyer.cookie,
    );
    expect(complete.statusCode).toBe(402);
    expect(await count(sandbox, sql`select count(*) as n from purchases where user_id = ${buyer.id}`)).toBe(
      0,
    );

    const fresh = await createIntent(sandbox, buyer, video.id);
    expect(fresh.amount).toBe(99);
    expect(fresh.paymentIntentId).not.toBe(old.paymentIntentId);
    await api.post(
      '/api/payments/sandbox/confirm',
      { clientSecret: fresh.clientSecret, card: CARD },
      buyer.cookie,
    );
    const done = await api.post(
      '/api/payment-complete',
      { paymentIntentId: fresh.paymentIntentId, videoId: video.id },
      buyer.cookie,
    );
    expect(done.statusCode).toBe(200);
    expect((await api.get('/api/user/purchases', buyer.cookie)).json()[0]).toMatchObject({ amount: 99 });
  });

  it('sandbox: a price changed behind the API (no cancel) still cannot be paid at the old amount', async () => {
    const { capper, buyer } = await people(sandbox);
    const video = await createVideo(sandbox, capper.id, { priceCents: 100 });
    const old = await createIntent(sandbox, buyer, video.id);
    await sandbox.database.db.execute(sql`update videos set price_cents = 9900 where id = ${video.id}`);
    const confirm = await client(sandbox.app).post(
      '/api/payments/sandbox/confirm',
      { clientSecret: old.clientSecret, card: CARD },
      buyer.cookie,
    );
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json()).toEqual({ message: PRICE_CHANGED_BEFORE_PAYMENT });
    expect((await createIntent(sandbox, buyer, video.id)).amount).toBe(99);
  });

  it('stripe: a price change cancels the open intent at Stripe, and the next intent is at the new price', async () => {
    const { capper, buyer } = await people(stripeApp);
    const video = await createVideo(stripeApp, capper.id, { priceCents: 100 });
    const old = await createIntent(stripeApp, buyer, video.id);
    const change = await client(stripeApp.app).patch(`/api/videos/${video.id}`, { price: 99 }, capper.cookie);
    expect(change.statusCode, change.body).toBe(200);
    expect(stripe.intents.get(old.paymentIntentId)!.status).toBe('canceled');
    expect(() => succeed(stripe.intents.get(old.paymentIntentId)!)).toThrow();
    const fresh = await createIntent(stripeApp, buyer, video.id);
    expect(fresh.amount).toBe(99);
    expect(stripe.intents.get(fresh.paymentIntentId)!.amount).toBe(9900);
  });

  it('stripe: a payment made at the old price before the cancel landed is refunded, not recorded, and the buyer is told', async () => {
    const { capper, buyer } = await people(stripeApp);
    const video = await createVideo(stripeApp, capper.id, { priceCents: 100 });
    const api = client(stripeApp.app);
    const old = await createIntent(stripeApp, buyer, video.id);
    succeed(stripe.intents.get(old.paymentIntentId)!); // paid at $1 just before the capper's change
    await api.patch(`/api/videos/${video.id}`, { price: 99 }, capper.cookie);

    const complete = await api.post(
      '/api/payment-complete',
      { paymentIntentId: old.paymentIntentId, videoId: video.id },
      buyer.cookie,
    );
    expect(complete.statusCode).toBe(409);
    expect(complete.json()).toEqual({
      message:
        'The price of this pick changed while you were paying. Your payment of $1.00 has been refunded; please review the new price.',
    });
    expect(stripe.refunds.filter((r) => r.payment_intent === old.paymentIntentId)).toHaveLength(1);
    expect(await count(stripeApp, sql`select count(*) as n from purchases where user_id = ${buyer.id}`)).toBe(
      0,
    );

    // The webhook for the same payment changes nothing more: no second refund, no purchase.
    expect((await webhook(succeededEvent(old.paymentIntentId))).statusCode).toBe(200);
    expect(stripe.refunds.filter((r) => r.payment_intent === old.paymentIntentId)).toHaveLength(1);
    const refunds = (await api.get('/api/user/refunds', buyer.cookie)).json<Refund[]>();
    expect(refunds).toEqual([
      {
        paymentIntentId: old.paymentIntentId,
        videoId: video.id,
        videoTitle: video.title,
        amount: 1,
        reason: 'price_changed',
        message: refundMessage('price_changed', 100),
        refundedAt: expect.any(String),
      },
    ]);
    expect((await createIntent(stripeApp, buyer, video.id)).amount).toBe(99);
  });
});

describe('a payment that unlocks nothing is refunded', () => {
  it('sandbox: a second succeeded payment for a video the buyer owns is refunded through the browser path', async () => {
    const { capper, buyer } = await people(sandbox);
    const video = await createVideo(sandbox, capper.id, { priceCents: 1250 });
    const api = client(sandbox.app);
    // Two payments that both succeeded, as the old code let 20 concurrent checkouts make.
    const base = { provider: 'sandbox', videoId: video.id, buyerId: buyer.id, amountCents: 1250 };
    const [a, b] = [`pi_sandbox_twice_a_${video.id}`, `pi_sandbox_twice_b_${video.id}`];
    await sandbox.database.db.insert(paymentIntents).values([
      { ...base, id: a, clientSecret: `${a}_secret`, status: 'succeeded' },
      { ...base, id: b, clientSecret: `${b}_secret`, status: 'succeeded' },
    ]);
    const first = await api.post(
      '/api/payment-complete',
      { paymentIntentId: a, videoId: video.id },
      buyer.cookie,
    );
    expect(first.statusCode).toBe(200);
    const second = await api.post(
      '/api/payment-complete',
      { paymentIntentId: b, videoId: video.id },
      buyer.cookie,
    );
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ message: refundMessage('already_owned', 1250) });
    // Asking again answers the same refund, once.
    const again = await api.post(
      '/api/payment-complete',
      { paymentIntentId: b, videoId: video.id },
      buyer.cookie,
    );
    expect(again.json()).toEqual(second.json());

    expect(await count(sandbox, sql`select count(*) as n from purchases where user_id = ${buyer.id}`)).toBe(
      1,
    );
    expect(await count(sandbox, sql`select count(*) as n from sales where video_id = ${video.id}`)).toBe(1);
    const [row] = rowsOf<{ status: string; refund_reason: string }>(
      await sandbox.database.db.execute(
        sql`select status, refund_reason from payment_intents where id = ${b}`,
      ),
    );
    expect(row).toEqual({ status: 'refunded', refund_reason: 'already_owned' });
    expect(
      await count(
        sandbox,
        sql`select count(*) as n from audit_log where action = 'payment.refund' and after->>'paymentIntentId' = ${b}
            and actor_id is null and (after->>'amountCents')::int = 1250 and after->>'reason' = 'already_owned'`,
      ),
    ).toBe(1);
    const refunds = (await api.get('/api/user/refunds', buyer.cookie)).json<Refund[]>();
    expect(refunds).toMatchObject([{ paymentIntentId: b, amount: 12.5, reason: 'already_owned' }]);
    expect((await api.get('/api/user/refunds')).statusCode).toBe(401);
  });

  it('stripe: the webhook refunds a duplicate payment instead of calling it recorded; charge.refunded for it is harmless', async () => {
    const { capper, buyer } = await people(stripeApp);
    const video = await createVideo(stripeApp, capper.id, { priceCents: 2000 });
    const api = client(stripeApp.app);
    const a = await createIntent(stripeApp, buyer, video.id);
    // A second intent the buyer also paid (an old duplicate: the migration canceled it on our side only).
    const bId = `pi_fake_dup_${video.id}`;
    stripe.intents.set(bId, {
      ...stripe.intents.get(a.paymentIntentId)!,
      id: bId,
      client_secret: `${bId}_secret_fake`,
    });
    await stripeApp.database.db.insert(paymentIntents).values({
      id: bId,
      provider: 'stripe',
      clientSecret: `${bId}_secret_fake`,
      videoId: video.id,
      buyerId: buyer.id,
      amountCents: 2000,
      status: 'canceled',
    });
    succeed(stripe.intents.get(a.paymentIntentId)!);
    succeed(stripe.intents.get(bId)!);

    expect((await webhook(succeededEvent(a.paymentIntentId))).statusCode).toBe(200);
    const second = await webhook(succeededEvent(bId));
    expect(second.statusCode, second.body).toBe(200);
    expect(stripe.refunds.map((r) => r.payment_intent)).toContain(bId);
    expect(stripe.refunds.map((r) => r.payment_intent)).not.toContain(a.paymentIntentId);

    // The browser's call for the same payment tells the buyer, without refunding twice.
    const told = await api.post(
      '/api/payment-complete',
      { paymentIntentId: bId, videoId: video.id },
      buyer.cookie,
    );
    expect(told.statusCode).toBe(409);
    expect(told.json()).toEqual({ message: refundMessage('already_owned', 2000) });
    expect(stripe.refunds.filter((r) => r.payment_intent === bId)).toHaveLength(1);
    const recorded = await api.post(
      '/api/payment-complete',
      { paymentIntentId: a.paymentIntentId, videoId: video.id },
      buyer.cookie,
    );
    expect(recorded.statusCode).toBe(200);

    // Stripe then reports the refund PickReel made: the buyer keeps the purchase made with the other payment.
    expect((await webhook(refundedEvent(bId))).statusCode).toBe(200);
    expect((await api.get(`/api/videos/${video.id}/purchased`, buyer.cookie)).json()).toEqual({
      purchased: true,
    });
    expect(await count(stripeApp, sql`select count(*) as n from sales where video_id = ${video.id}`)).toBe(1);
    expect(
      await count(
        stripeApp,
        sql`select count(*) as n from audit_log where action = 'payment.refund' and after->>'paymentIntentId' = ${bId}`,
      ),
    ).toBe(1);
    expect((await api.get('/api/user/refunds', buyer.cookie)).json()).toMatchObject([
      { paymentIntentId: bId, amount: 20, reason: 'already_owned' },
    ]);
  });

  it('stripe: a payment for a video deleted meanwhile is refunded by the webhook', async () => {
    const { capper, buyer } = await people(stripeApp);
    const video = await createVideo(stripeApp, capper.id, { priceCents: 700 });
    const intent = await createIntent(stripeApp, buyer, video.id);
    succeed(stripe.intents.get(intent.paymentIntentId)!);
    await stripeApp.database.db.execute(sql`delete from videos where id = ${video.id}`);
    expect((await webhook(succeededEvent(intent.paymentIntentId))).statusCode).toBe(200);
    expect(stripe.refunds.filter((r) => r.payment_intent === intent.paymentIntentId)).toHaveLength(1);
    expect((await client(stripeApp.app).get('/api/user/refunds', buyer.cookie)).json()).toMatchObject([
      { paymentIntentId: intent.paymentIntentId, videoId: null, videoTitle: null, reason: 'video_deleted' },
    ]);
  });

  it('stripe: 20 concurrent completions of one payment record one purchase, all answered 200, nothing refunded', async () => {
    const { capper, buyer } = await people(stripeApp);
    const video = await createVideo(stripeApp, capper.id);
    const intent = await createIntent(stripeApp, buyer, video.id);
    succeed(stripe.intents.get(intent.paymentIntentId)!);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        client(stripeApp.app).post(
          '/api/payment-complete',
          { paymentIntentId: intent.paymentIntentId, videoId: video.id },
          buyer.cookie,
        ),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array.from({ length: 20 }, () => 200));
    expect(new Set(responses.map((r) => r.json().purchaseId)).size).toBe(1);
    expect(stripe.refunds.filter((r) => r.payment_intent === intent.paymentIntentId)).toHaveLength(0);
  });
});

describe('the audit log', () => {
  it('shows admins the automatic refunds, newest first, paged; nobody else', async () => {
    const { capper, buyer } = await people(sandbox);
    const admin = await makeAdmin(sandbox);
    const video = await createVideo(sandbox, capper.id, { priceCents: 300 });
    const intent = await createIntent(sandbox, buyer, video.id);
    await sandbox.database.db.execute(sql`update videos set price_cents = 400 where id = ${video.id}`);
    await sandbox.database.db.execute(
      sql`update payment_intents set status = 'succeeded' where id = ${intent.paymentIntentId}`,
    );
    const complete = await client(sandbox.app).post(
      '/api/payment-complete',
      { paymentIntentId: intent.paymentIntentId, videoId: video.id },
      buyer.cookie,
    );
    expect(complete.json()).toEqual({ message: refundMessage('price_changed', 300) });

    const page = await client(sandbox.app).get('/api/admin/audit-log?limit=1', admin.cookie);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toEqual({
      total: expect.any(Number),
      entries: [
        {
          id: expect.any(Number),
          actorId: null,
          actorUsername: null,
          action: 'payment.refund',
          targetType: 'video',
          targetId: video.id,
          before: { status: 'succeeded' },
          after: {
            status: 'refunded',
            paymentIntentId: intent.paymentIntentId,
            provider: 'sandbox',
            buyerId: buyer.id,
            videoTitle: video.title,
            amountCents: 300,
            reason: 'price_changed',
          },
          createdAt: expect.any(String),
        },
      ],
    });
    const next = (
      await client(sandbox.app).get('/api/admin/audit-log?limit=1&offset=1', admin.cookie)
    ).json();
    if (next.entries.length > 0) expect(next.entries[0].id).toBeLessThan(page.json().entries[0].id);
    expect((await client(sandbox.app).get('/api/admin/audit-log', buyer.cookie)).statusCode).toBe(403);
    expect((await client(sandbox.app).get('/api/admin/audit-log')).statusCode).toBe(401);
    expect((await client(sandbox.app).get('/api/admin/audit-log?limit=0x10', admin.cookie)).statusCode).toBe(
      400,
    );
  });
});

describe('the ledger never pays out money that is not there', () => {
  it('refuses a bonus lower than what was paid out or requested, and keeps it unchanged', async () => {
    const capper = await registerUser(sandbox.app, {}, nextIp());
    const admin = await makeAdmin(sandbox);
    const api = client(sandbox.app);
    const set = (manualEarnings: number) =>
      api.patch(`/api/admin/users/${capper.id}/earnings`, { manualEarnings }, admin.cookie);
    expect((await set(100)).statusCode).toBe(200);
    const payout = await api.post(
      '/api/payout-request',
      { amount: 100, paymentMethod: 'paypal', accountDetails: 'capper@example.com' },
      capper.cookie,
    );
    expect(payout.statusCode).toBe(201);

    const lowered = await set(15);
    expect(lowered.statusCode).toBe(400);
    expect(lowered.json()).toEqual({ message: bonusTooLowMessage(10000, 10000) });
    expect(lowered.json().message).toBe(
      'The bonus cannot be lower than $100.00: $100.00 has already been paid out or requested.',
    );
    expect((await api.get('/api/user/earnings', capper.cookie)).json()).toMatchObject({
      bonus: 100,
      available: 0,
    });
    // Raising it, or keeping it, stays possible; a rejected payout frees the bonus again.
    expect((await set(120)).statusCode).toBe(200);
    const decided = await api.patch(
      `/api/admin/payouts/${payout.json().id}`,
      { status: 'rejected' },
      admin.cookie,
    );
    expect(decided.statusCode).toBe(200);
    expect((await set(0)).statusCode).toBe(200);
  });

  it('refuses to mark a payout paid while refunded sales leave the balance below zero; rejecting stays possible', async () => {
    const { capper, buyer } = await people(stripeApp);
    const admin = await makeAdmin(stripeApp);
    const api = client(stripeApp.app);
    const video = await createVideo(stripeApp, capper.id, { priceCents: 5000 });
    const intent = await createIntent(stripeApp, buyer, video.id);
    succeed(stripe.intents.get(intent.paymentIntentId)!);
    expect((await webhook(succeededEvent(intent.paymentIntentId))).statusCode).toBe(200);
    const payouts = [];
    for (const amount of [40, 5]) {
      const payout = await api.post(
        '/api/payout-request',
        { amount, paymentMethod: 'paypal', accountDetails: 'capper@example.com' },
        capper.cookie,
      );
      expect(payout.statusCode).toBe(201);
      payouts.push(payout.json<{ id: number }>());
    }
    // The buyer's bank takes the $50 back: the sale goes, the $45 requested stays.
    expect((await webhook(refundedEvent(intent.paymentIntentId))).statusCode).toBe(200);
    expect((await api.get('/api/user/earnings', capper.cookie)).json()).toMatchObject({
      sales: 0,
      payoutsRequested: 45,
      available: 0,
    });
    const paid = await api.patch(`/api/admin/payouts/${payouts[0]!.id}`, { status: 'paid' }, admin.cookie);
    expect(paid.statusCode).toBe(409);
    expect(paid.json()).toEqual({ message: negativeBalanceMessage(-4500) });
    expect(paid.json().message).toContain('-$45.00');
    const rejected = await api.patch(
      `/api/admin/payouts/${payouts[0]!.id}`,
      { status: 'rejected' },
      admin.cookie,
    );
    expect(rejected.statusCode).toBe(200);
    // Still below zero by $5: the other one cannot be paid either, and nothing new can be requested.
    expect(
      (await api.patch(`/api/admin/payouts/${payouts[1]!.id}`, { status: 'paid' }, admin.cookie)).statusCode,
    ).toBe(409);
    expect(
      (
        await api.post(
          '/api/payout-request',
          { amount: 1, paymentMethod: 'paypal', accountDetails: 'capper@example.com' },
          capper.cookie,
        )
      ).statusCode,
    ).toBe(400);
    expect(
      await count(
        stripeApp,
        sql`select count(*) as n from payout_requests where user_id = ${capper.id} and status = 'paid'`,
      ),
    ).toBe(0);
  });
});
