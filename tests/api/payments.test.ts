import { sql } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Video } from '#common/schemas/videos.js';
import { rowsOf } from '#server/db/rows.js';
import { createVideo } from '../setup/fixtures.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';

let t: TestApp;
let ip = 0;
const nextIp = () => `10.5.${Math.floor(++ip / 250)}.${ip % 250}`;
type Person = { cookie: string; id: number };
let capper: Person;

beforeAll(async () => {
  t = await createTestApp();
  capper = await registerUser(t.app, {}, nextIp());
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: object, cookie?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} });
const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

const CARD = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2099, cvc: '123' };

async function pay(buyer: Person, videoId: number, card = CARD) {
  const intent = await post('/api/create-payment-intent', { videoId }, buyer.cookie);
  expect(intent.statusCode, intent.body).toBe(200);
  const { clientSecret, paymentIntentId } = intent.json();
  const confirm = await post('/api/payments/sandbox/confirm', { clientSecret, card }, buyer.cookie);
  return { paymentIntentId, clientSecret, confirm: confirm.json() };
}

async function count(query: ReturnType<typeof sql>): Promise<number> {
  return Number(rowsOf<{ n: number }>(await t.database.db.execute(query))[0]!.n);
}

describe('purchase flow (sandbox provider)', () => {
  it('creates an intent for the database price, confirms 4242, records purchase and sale, unlocks selections', async () => {
    const video = await createVideo(t, capper.id, { priceCents: 2599 });
    const buyer = await registerUser(t.app, {}, nextIp());
    const intent = await post('/api/create-payment-intent', { videoId: video.id, amount: 1 }, buyer.cookie);
    expect(intent.json()).toMatchObject({ amount: 25.99, currency: 'usd', provider: 'sandbox' });
    // Asking again gives the same open intent.
    const again = await post('/api/create-payment-intent', { videoId: video.id }, buyer.cookie);
    expect(again.json().paymentIntentId).toBe(intent.json().paymentIntentId);

    const confirm = await post(
      '/api/payments/sandbox/confirm',
      { clientSecret: intent.json().clientSecret, card: CARD },
      buyer.cookie,
    );
    expect(confirm.json()).toEqual({ status: 'succeeded', paymentIntentId: intent.json().paymentIntentId });
    const complete = await post(
      '/api/payment-complete',
      { paymentIntentId: intent.json().paymentIntentId, videoId: video.id },
      buyer.cookie,
    );
    expect(complete.statusCode).toBe(200);
    expect(complete.json()).toMatchObject({ purchased: true });

    expect((await get(`/api/videos/${video.id}/purchased`, buyer.cookie)).json()).toEqual({
      purchased: true,
    });
    expect(((await get(`/api/videos/${video.id}`, buyer.cookie)).json() as Video).emailInformation).toBe(
      video.emailInformation,
    );
    const purchases = (await get('/api/user/purchases', buyer.cookie)).json();
    expect(purchases).toHaveLength(1);
    expect(purchases[0]).toMatchObject({
      amount: 25.99,
      videoId: video.id,
      videos: { id: video.id, isPurchased: true },
    });
    expect(purchases[0].videos.emailInformation).toBe(video.emailInformation);
    expect(purchases[0].purchaseDate).toEqual(expect.any(String));
    const sales = (await get('/api/user/sales', capper.cookie)).json();
    expect(sales.find((s: { videoId: number }) => s.videoId === video.id)).toMatchObject({ amount: 25.99 });

    // Buying it again is refused.
    const twice = await post('/api/create-payment-intent', { videoId: video.id }, buyer.cookie);
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toEqual({ message: 'You have already purchased this video.' });
  });

  it('refuses own, missing and unready videos, and visitors', async () => {
    const own = await createVideo(t, capper.id);
    expect((await post('/api/create-payment-intent', { videoId: own.id }, capper.cookie)).json()).toEqual({
      message: 'You cannot buy your own video.',
    });
    const buyer = await registerUser(t.app, {}, nextIp());
    expect((await post('/api/create-payment-intent', { videoId: 999999 }, buyer.cookie)).statusCode).toBe(
      404,
    );
    const pending = await createVideo(t, capper.id, { transcodingStatus: 'processing' });
    expect((await post('/api/create-payment-intent', { videoId: pending.id }, buyer.cookie)).statusCode).toBe(
      404,
    );
    expect((await post('/api/create-payment-intent', { videoId: own.id })).statusCode).toBe(401);
    expect((await post('/api/create-payment-intent', { videoId: 'abc' }, buyer.cookie)).statusCode).toBe(400);
  });

  it("declines Stripe's decline and insufficient-funds cards and records nothing", async () => {
    const video = await createVideo(t, capper.id);
    const buyer = await registerUser(t.app, {}, nextIp());
    for (const [number, message] of [
      ['4000000000000002', 'Your card was declined.'],
      ['4000000000009995', 'Your card has insufficient funds.'],
      ['4242424242424241', 'Your card number is incorrect.'],
    ] as const) {
      const { paymentIntentId, confirm } = await pay(buyer, video.id, { ...CARD, number });
      expect(confirm).toEqual({ status: 'requires_payment_method', paymentIntentId, error: { message } });
      const complete = await post(
        '/api/payment-complete',
        { paymentIntentId, videoId: video.id },
        buyer.cookie,
      );
      expect(complete.statusCode).toBe(402);
    }
    const expired = await pay(buyer, video.id, { ...CARD, expYear: 2020 });
    expect(expired.confirm.error.message).toMatch(/expiration/);
    expect(await count(sql`select count(*) as n from purchases where user_id = ${buyer.id}`)).toBe(0);
  });

  it("refuses replays, another user's intent and a wrong video", async () => {
    const video = await createVideo(t, capper.id);
    const other = await createVideo(t, capper.id);
    const buyer = await registerUser(t.app, {}, nextIp());
    const thief = await registerUser(t.app, {}, nextIp());
    const { paymentIntentId } = await pay(buyer, video.id);

    const stolen = await post('/api/payment-complete', { paymentIntentId, videoId: video.id }, thief.cookie);
    expect(stolen.statusCode).toBe(403);
    const wrongVideo = await post(
      '/api/payment-complete',
      { paymentIntentId, videoId: other.id },
      buyer.cookie,
    );
    expect(wrongVideo.statusCode).toBe(400);
    const unknown = await post(
      '/api/payment-complete',
      { paymentIntentId: 'pi_nope', videoId: video.id },
      buyer.cookie,
    );
    expect(unknown.statusCode).toBe(404);

    const first = await post('/api/payment-complete', { paymentIntentId, videoId: video.id }, buyer.cookie);
    expect(first.statusCode).toBe(200);
    // The same payment again is the same success: only a payment that unlocks nothing is a 409.
    const replay = await post('/api/payment-complete', { paymentIntentId, videoId: video.id }, buyer.cookie);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first.json());
    expect(
      await count(sql`select count(*) as n from purchases where payment_intent_id = ${paymentIntentId}`),
    ).toBe(1);
    // The thief's confirm of the buyer's secret is refused too.
    const { clientSecret } = (
      await post('/api/create-payment-intent', { videoId: other.id }, buyer.cookie)
    ).json();
    expect(
      (await post('/api/payments/sandbox/confirm', { clientSecret, card: CARD }, thief.cookie)).statusCode,
    ).toBe(404);
  });

  it('records exactly one purchase for 20 concurrent completions of one intent', async () => {
    const video = await createVideo(t, capper.id);
    const buyer = await registerUser(t.app, {}, nextIp());
    const { paymentIntentId } = await pay(buyer, video.id);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        post('/api/payment-complete', { paymentIntentId, videoId: video.id }, buyer.cookie),
      ),
    );
    // Every answer is the same success with the same purchase: none is refunded.
    expect(responses.map((r) => r.statusCode)).toEqual(Array.from({ length: 20 }, () => 200));
    expect(new Set(responses.map((r) => r.json().purchaseId)).size).toBe(1);
    expect(
      await count(sql`select count(*) as n from purchases where payment_intent_id = ${paymentIntentId}`),
    ).toBe(1);
    expect(await count(sql`select count(*) as n from sales where video_id = ${video.id}`)).toBe(1);
  });
});

describe('earnings and payouts', () => {
  async function cappperWithSales(cents: number[]) {
    const seller = await registerUser(t.app, {}, nextIp());
    for (const price of cents) {
      const video = await createVideo(t, seller.id, { priceCents: price });
      const buyer = await registerUser(t.app, {}, nextIp());
      const { paymentIntentId } = await pay(buyer, video.id);
      await post('/api/payment-complete', { paymentIntentId, videoId: video.id }, buyer.cookie);
    }
    return seller;
  }

  it("lists the seller's sales newest first, exactly as the dashboard reads them, also once a video is gone", async () => {
    const seller = await cappperWithSales([99, 2599, 1000]);
    const rows = rowsOf<{ id: number; video_id: number; created_at: Date | string }>(
      await t.database.db.execute(
        sql`select id, video_id, created_at from sales where seller_id = ${seller.id} order by id`,
      ),
    );
    const [cheap, middle, last] = rows;
    // The first sale made last: ordering is by date, not by id.
    await t.database.db.execute(
      sql`update sales set created_at = now() + interval '1 hour' where id = ${cheap!.id}`,
    );
    await t.database.db.execute(sql`delete from videos where id = ${middle!.video_id}`);
    const res = await get('/api/user/sales', seller.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const sales = res.json();
    const isoDate = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(sales).toEqual([
      {
        id: cheap!.id,
        amount: 0.99,
        videoId: cheap!.video_id,
        videoTitle: expect.any(String),
        createdAt: isoDate,
      },
      {
        id: last!.id,
        amount: 10,
        videoId: last!.video_id,
        videoTitle: expect.any(String),
        createdAt: isoDate,
      },
      { id: middle!.id, amount: 25.99, videoId: null, videoTitle: null, createdAt: isoDate },
    ]);
    expect(new Date(sales[2].createdAt).getTime()).toBe(new Date(middle!.created_at).getTime());
    expect((await get('/api/user/sales?limit=1&offset=1', seller.cookie)).json()).toEqual([sales[1]]);
    const stranger = await registerUser(t.app, {}, nextIp());
    expect((await get('/api/user/sales', stranger.cookie)).json()).toEqual([]);
    expect((await get('/api/user/sales')).statusCode).toBe(401);
  });

  it('shows sales, bonus and available, and a payout with its 10% fee lowers the balance', async () => {
    const seller = await cappperWithSales([2000, 3000]);
    await t.database.db.execute(sql`update users set manual_earnings_cents = 1050 where id = ${seller.id}`);
    t.app.sessions.invalidateUser(seller.id);
    expect((await get('/api/user/earnings', seller.cookie)).json()).toEqual({
      sales: 50,
      salesCount: 2,
      subscriptions: 0,
      bonus: 10.5,
      total: 60.5,
      payoutsRequested: 0,
      available: 60.5,
    });
    const payout = await post(
      '/api/payout-request',
      { amount: 40, paymentMethod: 'paypal', accountDetails: 'capper@example.com' },
      seller.cookie,
    );
    expect(payout.statusCode).toBe(201);
    expect(payout.json()).toMatchObject({
      amount: 40,
      fee: 4,
      net: 36,
      status: 'pending',
      paymentMethod: 'paypal',
    });
    expect((await get('/api/user/earnings', seller.cookie)).json()).toMatchObject({
      payoutsRequested: 40,
      available: 20.5,
    });

    const over = await post(
      '/api/payout-request',
      { amount: 20.51, paymentMethod: 'bank', accountDetails: 'IBAN 123456' },
      seller.cookie,
    );
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({
      message: 'Invalid amount: You cannot request more than your available earnings.',
    });
    expect((await get('/api/user/payouts', seller.cookie)).json()).toHaveLength(1);
  });

  it('validates payout requests with the spec messages', async () => {
    const seller = await registerUser(t.app, {}, nextIp());
    for (const [payload, message] of [
      [{ paymentMethod: 'paypal', accountDetails: 'me@example.com' }, 'Amount is required'],
      [
        { amount: -5, paymentMethod: 'paypal', accountDetails: 'me@example.com' },
        'Amount must be a positive number',
      ],
      [
        { amount: 5, paymentMethod: 'cash', accountDetails: 'me@example.com' },
        'Please select a payment method',
      ],
      [
        { amount: 5, paymentMethod: 'venmo', accountDetails: 'abc' },
        'Please provide sufficient payment account details',
      ],
    ] as const) {
      const response = await post('/api/payout-request', payload, seller.cookie);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toEqual({ message });
    }
    expect(
      (await post('/api/payout-request', { amount: 5, paymentMethod: 'paypal', accountDetails: 'x@y.com' }))
        .statusCode,
    ).toBe(401);
  });

  it('never grants more than the balance to 20 concurrent requests', async () => {
    const seller = await cappperWithSales([5000]);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(
          '/api/payout-request',
          { amount: 7, paymentMethod: 'venmo', accountDetails: '@capper-venmo' },
          seller.cookie,
        ),
      ),
    );
    const granted = responses.filter((r) => r.statusCode === 201).length;
    expect(granted).toBe(7); // 7 × $7 = $49 ≤ $50 < 8 × $7
    expect(responses.filter((r) => r.statusCode === 400)).toHaveLength(13);
    const held = await count(
      sql`select coalesce(sum(amount_cents), 0) as n from payout_requests where user_id = ${seller.id}`,
    );
    expect(held).toBeLessThanOrEqual(5000);
  });

  it('lets an admin mark a payout paid or rejected; a rejected one returns to the balance', async () => {
    const seller = await cappperWithSales([3000]);
    const admin = await registerUser(t.app, {}, nextIp());
    await t.database.db.execute(sql`update users set is_admin = true where id = ${admin.id}`);
    const a = (
      await post(
        '/api/payout-request',
        { amount: 10, paymentMethod: 'paypal', accountDetails: 'me@example.com' },
        seller.cookie,
      )
    ).json();
    const b = (
      await post(
        '/api/payout-request',
        { amount: 15, paymentMethod: 'paypal', accountDetails: 'me@example.com' },
        seller.cookie,
      )
    ).json();
    const decide = (id: number, status: string, cookie = admin.cookie) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/admin/payouts/${id}`,
        payload: { status },
        headers: { cookie },
      });

    expect((await decide(a.id, 'paid', seller.cookie)).statusCode).toBe(403);
    expect((await decide(a.id, 'paid')).json()).toMatchObject({ status: 'paid' });
    expect((await decide(b.id, 'rejected')).json()).toMatchObject({ status: 'rejected' });
    expect((await decide(b.id, 'paid')).statusCode).toBe(409);
    expect((await decide(b.id, 'sent')).statusCode).toBe(400);
    expect((await get('/api/user/earnings', seller.cookie)).json()).toMatchObject({
      payoutsRequested: 10,
      available: 20,
    });
    const list = (await get('/api/admin/payouts', admin.cookie)).json();
    expect(list.find((p: { id: number }) => p.id === a.id)).toMatchObject({
      username: expect.any(String),
      fee: 1,
      net: 9,
    });
    expect((await get('/api/admin/payouts', seller.cookie)).statusCode).toBe(403);
    expect((await get('/api/admin/payouts')).statusCode).toBe(401);
  });
});
