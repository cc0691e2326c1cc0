// Promo codes (docs/decisions/039): the capper's management, the check, and the single-pick checkout
// charging the discounted amount with max uses, once per buyer, expiry, retirement and price changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import {
  PROMO_CHANGED_BEFORE_PAYMENT,
  PROMO_HOLD_EXPIRED,
  PROMO_MESSAGES,
  type PromoCode,
} from '#common/schemas/promos.js';
import { quotePromo, redeemPromo } from '#server/features/promos/index.js';
import { StripeProvider } from '#server/payments/stripe-provider.js';
import { createPurchase, createVideo } from '../setup/fixtures.js';
import { startStripeStandIn, succeed } from '../setup/stripe-stand-in.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';

type Person = { cookie: string; id: number; username: string };
let t: TestApp;
let capper: Person;
let ip = 0;
const nextIp = () => `10.39.${Math.floor(++ip / 250)}.${ip % 250}`;
const CARD = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2099, cvc: '123' };

const post = (url: string, payload: object, cookie?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} });
const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const codesUrl = (username: string) => `/api/cappers/${encodeURIComponent(username)}/promo-codes`;
const person = () => registerUser(t.app, {}, nextIp());

async function createCode(owner: Person, body: object): Promise<PromoCode> {
  const response = await post(codesUrl(owner.username), body, owner.cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PromoCode>();
}

async function intent(buyer: Person, videoId: number, promoCode?: string) {
  return post('/api/create-payment-intent', { videoId, ...(promoCode && { promoCode }) }, buyer.cookie);
}

/** Pays with the sandbox's 4242 card and records the purchase; returns the intent's answer. */
async function buy(buyer: Person, videoId: number, promoCode?: string) {
  const created = await intent(buyer, videoId, promoCode);
  expect(created.statusCode, created.body).toBe(200);
  const body = created.json();
  const confirm = await post(
    '/api/payments/sandbox/confirm',
    { clientSecret: body.clientSecret, card: CARD },
    buyer.cookie,
  );
  expect(confirm.json().status).toBe('succeeded');
  const complete = await post(
    '/api/payment-complete',
    { paymentIntentId: body.paymentIntentId, videoId },
    buyer.cookie,
  );
  expect(complete.statusCode, complete.body).toBe(200);
  return body;
}

async function uses(codeId: number) {
  return rowsOf<{ status: string; n: number }>(
    await t.database.db.execute(
      sql`select status, count(*)::int as n from promo_redemptions where promo_code_id = ${codeId} group by status order by status`,
    ),
  ).map((row) => [row.status, Number(row.n)]);
}

beforeAll(async () => {
  t = await createTestApp();
  capper = await person();
});
afterAll(async () => {
  await t?.close();
});

describe('managing codes', () => {
  it('validates a new code with clear messages', async () => {
    const cases: [object, string][] = [
      [{ code: 'AB', kind: 'percent', percentOff: 10 }, 'A code has at least 3 characters'],
      [{ code: 'A'.repeat(21), kind: 'percent', percentOff: 10 }, 'A code has at most 20 characters'],
      [{ code: 'NO SPACE', kind: 'percent', percentOff: 10 }, 'Use only letters A–Z, digits 0–9 and dashes'],
      [{ code: 'BIG', kind: 'percent', percentOff: 91 }, 'Percent off must be at most 90'],
      [{ code: 'ZERO', kind: 'percent', percentOff: 0 }, 'Percent off must be at least 1'],
      [{ code: 'NOPCT', kind: 'percent' }, 'Enter the percent off'],
      [{ code: 'NOAMT', kind: 'fixed' }, 'Enter the amount off'],
      [{ code: 'CENTS', kind: 'fixed', amountOff: 1.005 }, 'Amount off can have at most two decimals'],
      [
        { code: 'PAST', kind: 'percent', percentOff: 5, expiresAt: '2020-01-01T00:00:00Z' },
        'Expiry must be in the future',
      ],
      [{ code: 'USES', kind: 'percent', percentOff: 5, maxUses: 0 }, 'Maximum uses must be at least 1'],
      [{ code: 'KIND', kind: 'free' }, 'Choose percent or fixed amount'],
    ];
    for (const [body, message] of cases) {
      const response = await post(codesUrl(capper.username), body, capper.cookie);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toContain(message);
    }
  });

  it('creates, lists and retires; codes are unique per capper whatever the case', async () => {
    const owner = await person();
    const code = await createCode(owner, { code: 'spring-10', kind: 'percent', percentOff: 10, maxUses: 5 });
    expect(code).toMatchObject({
      code: 'SPRING-10',
      kind: 'percent',
      percentOff: 10,
      amountOff: null,
      maxUses: 5,
      uses: 0,
      reserved: 0,
      duration: 'once',
      status: 'active',
    });
    const again = await post(
      codesUrl(owner.username),
      { code: 'Spring-10', kind: 'fixed', amountOff: 2 },
      owner.cookie,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(PROMO_MESSAGES.duplicate);
    // Another capper may have the same code.
    await createCode(capper, { code: 'SPRING-10', kind: 'fixed', amountOff: 2.5, duration: 'forever' });

    const list = (await get(codesUrl(owner.username), owner.cookie)).json<PromoCode[]>();
    expect(list.map((c) => c.code)).toEqual(['SPRING-10']);
    const retired = await post(`${codesUrl(owner.username)}/${code.id}/retire`, {}, owner.cookie);
    expect(retired.statusCode, retired.body).toBe(200);
    expect(retired.json<PromoCode>().status).toBe('retired');
  });

  it('only the capper manages their codes', async () => {
    const owner = await person();
    const stranger = await person();
    const code = await createCode(owner, { code: 'MINE', kind: 'percent', percentOff: 20 });
    expect((await get(codesUrl(owner.username), stranger.cookie)).statusCode).toBe(403);
    expect((await get(codesUrl(owner.username))).statusCode).toBe(401);
    expect(
      (
        await post(
          codesUrl(owner.username),
          { code: 'THEIRS', kind: 'percent', percentOff: 5 },
          stranger.cookie,
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (await post(`${codesUrl(owner.username)}/${code.id}/retire`, {}, stranger.cookie)).statusCode,
    ).toBe(403);
    // Retiring through one's own name a code that is someone else's finds nothing.
    expect(
      (await post(`${codesUrl(stranger.username)}/${code.id}/retire`, {}, stranger.cookie)).statusCode,
    ).toBe(404);
    expect((await get(codesUrl('no-such-capper-here'), owner.cookie)).statusCode).toBe(404);
    expect((await get(codesUrl(owner.username), owner.cookie)).json<PromoCode[]>()[0]!.status).toBe('active');
  });
});

describe('checking a code', () => {
  it('quotes percent and fixed codes on a pick, and on a capper alone', async () => {
    const owner = await person();
    const buyer = await person();
    const video = await createVideo(t, owner.id, { priceCents: 1999 });
    await createCode(owner, { code: 'TWENTY', kind: 'percent', percentOff: 20 });
    await createCode(owner, { code: 'FIVE', kind: 'fixed', amountOff: 5 });
    const pct = await post('/api/promo-codes/check', { videoId: video.id, code: 'twenty' }, buyer.cookie);
    expect(pct.statusCode, pct.body).toBe(200);
    // 20 % of $19.99 is $4.00 to the cent.
    expect(pct.json()).toMatchObject({ code: 'TWENTY', originalPrice: 19.99, discount: 4, price: 15.99 });
    const fixed = await post('/api/promo-codes/check', { videoId: video.id, code: 'FIVE' }, buyer.cookie);
    expect(fixed.json()).toMatchObject({ kind: 'fixed', amountOff: 5, discount: 5, price: 14.99 });
    const capperOnly = await post(
      '/api/promo-codes/check',
      { username: owner.username, code: 'FIVE' },
      buyer.cookie,
    );
    expect(capperOnly.json()).toMatchObject({ amountOff: 5, price: null, duration: 'once' });
  });

  it('never brings a charge below $0.50: the discount is clamped', async () => {
    const owner = await person();
    const buyer = await person();
    const video = await createVideo(t, owner.id, { priceCents: 300 });
    await createCode(owner, { code: 'BIGOFF', kind: 'fixed', amountOff: 10 });
    const check = await post('/api/promo-codes/check', { videoId: video.id, code: 'BIGOFF' }, buyer.cookie);
    expect(check.json()).toMatchObject({ originalPrice: 3, discount: 2.5, price: 0.5 });
    const paid = await buy(buyer, video.id, 'BIGOFF');
    expect(paid.amount).toBe(0.5);
  });

  it('answers a clear 4xx for an unknown, expired, retired or own code', async () => {
    const owner = await person();
    const buyer = await person();
    const video = await createVideo(t, owner.id, { priceCents: 1000 });
    const check = (code: string, who = buyer) =>
      post('/api/promo-codes/check', { videoId: video.id, code }, who.cookie);
    const unknown = await check('NOPE');
    expect([unknown.statusCode, unknown.json().message]).toEqual([404, PROMO_MESSAGES.notFound]);
    // A code of another capper is no code of this one.
    await createCode(capper, { code: 'OTHERS', kind: 'percent', percentOff: 10 });
    expect((await check('OTHERS')).statusCode).toBe(404);

    const soon = await createCode(owner, {
      code: 'SOON',
      kind: 'percent',
      percentOff: 10,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await check('SOON')).statusCode).toBe(200);
    await t.database.db.execute(
      sql`update promo_codes set expires_at = now() - interval '1 second' where id = ${soon.id}`,
    );
    const expired = await check('SOON');
    expect([expired.statusCode, expired.json().message]).toEqual([410, PROMO_MESSAGES.expired]);
    expect((await intent(buyer, video.id, 'SOON')).json().message).toBe(PROMO_MESSAGES.expired);
    expect((await get(codesUrl(owner.username), owner.cookie)).json<PromoCode[]>()[0]!.status).toBe(
      'expired',
    );

    const old = await createCode(owner, { code: 'OLD', kind: 'percent', percentOff: 10 });
    await post(`${codesUrl(owner.username)}/${old.id}/retire`, {}, owner.cookie);
    const retired = await check('OLD');
    expect([retired.statusCode, retired.json().message]).toEqual([409, PROMO_MESSAGES.retired]);
    expect((await intent(buyer, video.id, 'OLD')).statusCode).toBe(409);

    await createCode(owner, { code: 'SELF', kind: 'percent', percentOff: 10 });
    expect((await check('SELF', owner)).statusCode).toBe(400);
    expect((await post('/api/promo-codes/check', { code: 'SELF' }, buyer.cookie)).statusCode).toBe(400);
    expect((await post('/api/promo-codes/check', { videoId: video.id, code: 'SELF' })).statusCode).toBe(401);
  });
});

describe('checkout with a code', () => {
  it('charges the discounted amount; the purchase and the earnings are on what was charged', async () => {
    const owner = await person();
    const buyer = await person();
    const video = await createVideo(t, owner.id, { priceCents: 2500 });
    const code = await createCode(owner, { code: 'QUARTER', kind: 'percent', percentOff: 25, maxUses: 10 });
    // The client's amount is never read.
    const created = await post(
      '/api/create-payment-intent',
      { videoId: video.id, promoCode: 'quarter', amount: 1 },
      buyer.cookie,
    );
    expect(created.json()).toMatchObject({
      amount: 18.75,
      promo: { code: 'QUARTER', originalAmount: 25, discount: 6.25 },
    });
    // Asked again with the same code: the same intent, and one reservation.
    expect((await intent(buyer, video.id, 'QUARTER')).json().paymentIntentId).toBe(
      created.json().paymentIntentId,
    );
    expect(await uses(code.id)).toEqual([['reserved', 1]]);
    const listed = (await get(codesUrl(owner.username), owner.cookie)).json<PromoCode[]>()[0]!;
    expect([listed.uses, listed.reserved]).toEqual([0, 1]);

    await buy(buyer, video.id, 'QUARTER');
    expect(await uses(code.id)).toEqual([['redeemed', 1]]);
    const intentRow = rowsOf<{ amount_cents: number }>(
      await t.database.db.execute(
        sql`select amount_cents from payment_intents where id = ${created.json().paymentIntentId}`,
      ),
    )[0]!;
    expect(intentRow.amount_cents).toBe(1875);
    expect((await get('/api/user/purchases', buyer.cookie)).json()[0]).toMatchObject({ amount: 18.75 });
    expect((await get('/api/user/sales', owner.cookie)).json()[0]).toMatchObject({ amount: 18.75 });
    expect((await get('/api/user/earnings', owner.cookie)).json()).toMatchObject({
      sales: 18.75,
      total: 18.75,
    });
    const after = (await get(codesUrl(owner.username), owner.cookie)).json<PromoCode[]>()[0]!;
    expect([after.uses, after.reserved]).toEqual([1, 0]);
  });

  it('removing or changing the code replaces the open intent and releases its use', async () => {
    const owner = await person();
    const buyer = await person();
    const video = await createVideo(t, owner.id, { priceCents: 1000 });
    const code = await createCode(owner, { code: 'TENOFF', kind: 'percent', percentOff: 10, maxUses: 1 });
    const withCode = (await intent(buyer, video.id, 'TENOFF')).json();
    expect(withCode.amount).toBe(9);
    const without = (await intent(buyer, video.id)).json();
    expect(without.amount).toBe(10);
    expect(without.promo).toBeUndefined();
    const stale = await post(
      '/api/payments/sandbox/confirm',
      { clientSecret: withCode.clientSecret, card: CARD },
      buyer.cookie,
    );
    expect([stale.statusCode, stale.json().message]).toEqual([409, PROMO_CHANGED_BEFORE_PAYMENT]);
    // The released use is free for another buyer.
    const other = await person();
    expect((await intent(other, video.id, 'TENOFF')).json().amount).toBe(9);
    expect(await uses(code.id)).toEqual([
      ['released', 1],
      ['reserved', 1],
    ]);
  });

  it('a discounted payment that unlocks nothing is refunded for what was charged, and frees its use', async () => {
    const owner = await person();
    const buyer = await person();
    const video = await createVideo(t, owner.id, { priceCents: 1000 });
    const code = await createCode(owner, { code: 'REFUND', kind: 'percent', percentOff: 10, maxUses: 1 });
    const created = (await intent(buyer, video.id, 'REFUND')).json();
    // Bought meanwhile through another payment: this one is given back.
    await createPurchase(t, buyer.id, video);
    await post(
      '/api/payments/sandbox/confirm',
      { clientSecret: created.clientSecret, card: CARD },
      buyer.cookie,
    );
    const complete = await post(
      '/api/payment-complete',
      { paymentIntentId: created.paymentIntentId, videoId: video.id },
      buyer.cookie,
    );
    expect(complete.statusCode).toBe(409);
    expect(complete.json().message).toContain('Your payment of $9.00 has been refunded');
    expect((await get('/api/user/refunds', buyer.cookie)).json()[0]).toMatchObject({ amount: 9 });
    // The refunded payment's use no longer counts: another buyer takes the only one.
    expect((await intent(await person(), video.id, 'REFUND')).json().amount).toBe(9);
    expect(await uses(code.id)).toEqual([
      ['released', 1],
      ['reserved', 1],
    ]);
  });

  it('is once per buyer', async () => {
    const owner = await person();
    const buyer = await person();
    const first = await createVideo(t, owner.id, { priceCents: 1000 });
    const second = await createVideo(t, owner.id, { priceCents: 1000 });
    await createCode(owner, { code: 'ONCE', kind: 'fixed', amountOff: 1 });
    await buy(buyer, first.id, 'ONCE');
    const again = await intent(buyer, second.id, 'ONCE');
    expect([again.statusCode, again.json().message]).toEqual([409, PROMO_MESSAGES.usedByYou]);
    const check = await post('/api/promo-codes/check', { videoId: second.id, code: 'ONCE' }, buyer.cookie);
    expect(check.json().message).toBe(PROMO_MESSAGES.usedByYou);
  });

  it('max uses holds when two checkouts race for the last use', async () => {
    const owner = await person();
    const video = await createVideo(t, owner.id, { priceCents: 1000 });
    const code = await createCode(owner, { code: 'LAST', kind: 'percent', percentOff: 50, maxUses: 2 });
    await buy(await person(), video.id, 'LAST');
    const [a, b] = [await person(), await person()];
    const answers = await Promise.all([intent(a, video.id, 'LAST'), intent(b, video.id, 'LAST')]);
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes).toEqual([200, 409]);
    const loser = answers.find((answer) => answer.statusCode === 409)!;
    expect(loser.json().message).toBe(PROMO_MESSAGES.usedUp);
    expect(await uses(code.id)).toEqual([
      ['redeemed', 1],
      ['reserved', 1],
    ]);
    // The loser's intent was not kept open.
    const open = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::int as n from payment_intents
        where video_id = ${video.id} and status not in ('succeeded', 'canceled', 'refunded')`),
    )[0]!;
    expect(Number(open.n)).toBe(1);
    const status = (await get(codesUrl(owner.username), owner.cookie)).json<PromoCode[]>()[0]!.status;
    expect(status).toBe('used_up');
  });

  it('a checkout unpaid past its hold gives its use up to another buyer, and cannot be paid', async () => {
    const owner = await person();
    const video = await createVideo(t, owner.id, { priceCents: 1000 });
    await createCode(owner, { code: 'HOLD', kind: 'percent', percentOff: 10, maxUses: 1 });
    const slow = await person();
    const held = (await intent(slow, video.id, 'HOLD')).json();
    const fast = await person();
    expect((await intent(fast, video.id, 'HOLD')).json().message).toBe(PROMO_MESSAGES.usedUp);
    await t.database.db.execute(
      sql`update promo_redemptions set created_at = now() - interval '31 minutes' where payment_intent_id = ${held.paymentIntentId}`,
    );
    expect((await intent(fast, video.id, 'HOLD')).json().amount).toBe(9);
    const late = await post(
      '/api/payments/sandbox/confirm',
      { clientSecret: held.clientSecret, card: CARD },
      slow.cookie,
    );
    expect([late.statusCode, late.json().message]).toEqual([409, PROMO_HOLD_EXPIRED]);
  });

  it('a buyer back at a checkout past its hold gets a fresh intent that holds the use again', async () => {
    const owner = await person();
    const buyer = await person();
    const video = await createVideo(t, owner.id, { priceCents: 1000 });
    const code = await createCode(owner, { code: 'BACK', kind: 'percent', percentOff: 10, maxUses: 1 });
    const first = (await intent(buyer, video.id, 'BACK')).json();
    await t.database.db.execute(
      sql`update promo_redemptions set created_at = now() - interval '31 minutes' where payment_intent_id = ${first.paymentIntentId}`,
    );
    const fresh = (await intent(buyer, video.id, 'BACK')).json();
    expect(fresh.paymentIntentId).not.toBe(first.paymentIntentId);
    expect(fresh.amount).toBe(9);
    expect(await uses(code.id)).toEqual([
      ['released', 1],
      ['reserved', 1],
    ]);
    expect((await intent(await person(), video.id, 'BACK')).json().message).toBe(PROMO_MESSAGES.usedUp);
  });

  it('a price change cancels the discounted intent; the code applies to the new price', async () => {
    const owner = await person();
    const buyer = await person();
    const video = await createVideo(t, owner.id, { priceCents: 2000 });
    const code = await createCode(owner, { code: 'NEWPRICE', kind: 'percent', percentOff: 10, maxUses: 1 });
    const old = (await intent(buyer, video.id, 'NEWPRICE')).json();
    expect(old.amount).toBe(18);
    const change = await t.app.inject({
      method: 'PATCH',
      url: `/api/videos/${video.id}`,
      payload: { price: 30 },
      headers: { cookie: owner.cookie },
    });
    expect(change.statusCode, change.body).toBe(200);
    const confirm = await post(
      '/api/payments/sandbox/confirm',
      { clientSecret: old.clientSecret, card: CARD },
      buyer.cookie,
    );
    expect(confirm.statusCode).toBe(409);
    // The same buyer applies the code again: its old use was released with the canceled intent.
    const paid = await buy(buyer, video.id, 'NEWPRICE');
    expect(paid).toMatchObject({ amount: 27, promo: { originalAmount: 30, discount: 3 } });
    expect(await uses(code.id)).toEqual([
      ['redeemed', 1],
      ['released', 1],
    ]);
    expect((await get('/api/user/purchases', buyer.cookie)).json()[0]).toMatchObject({ amount: 27 });
  });

  it('a price changed behind the API still refuses the discounted intent at the old price', async () => {
    const owner = await person();
    const buyer = await person();
    const video = await createVideo(t, owner.id, { priceCents: 2000 });
    await createCode(owner, { code: 'BEHIND', kind: 'fixed', amountOff: 5 });
    const old = (await intent(buyer, video.id, 'BEHIND')).json();
    await t.database.db.execute(sql`update videos set price_cents = 2500 where id = ${video.id}`);
    const confirm = await post(
      '/api/payments/sandbox/confirm',
      { clientSecret: old.clientSecret, card: CARD },
      buyer.cookie,
    );
    expect(confirm.statusCode).toBe(409);
    expect((await intent(buyer, video.id, 'BEHIND')).json().amount).toBe(20);
  });

  it('an unknown code at checkout is refused and no intent is left open', async () => {
    const owner = await person();
    const buyer = await person();
    const video = await createVideo(t, owner.id, { priceCents: 1000 });
    const refused = await intent(buyer, video.id, 'WHAT');
    expect([refused.statusCode, refused.json().message]).toEqual([404, PROMO_MESSAGES.notFound]);
    const open = rowsOf<{ n: number }>(
      await t.database.db.execute(
        sql`select count(*)::int as n from payment_intents where buyer_id = ${buyer.id}`,
      ),
    )[0]!;
    expect(Number(open.n)).toBe(0);
  });
});

describe('for subscriptions', () => {
  it('quotePromo and redeemPromo take a use at once, with the same limits', async () => {
    const owner = await person();
    const [first, second] = [await person(), await person()];
    const code = await createCode(owner, {
      code: 'PLAN',
      kind: 'percent',
      percentOff: 50,
      maxUses: 1,
      duration: 'forever',
    });
    const db = t.database.db;
    const quote = await quotePromo(db, {
      capperId: owner.id,
      code: 'plan',
      buyerId: first.id,
      amountCents: 2000,
      for: 'subscription',
    });
    expect(quote).toMatchObject({ duration: 'forever', amountOffCents: 1000, chargeCents: 1000 });
    await db.transaction((tx) => redeemPromo(tx, quote, { buyerId: first.id, subscriptionId: 'sub_1' }));
    expect(await uses(code.id)).toEqual([['redeemed', 1]]);
    await expect(
      db.transaction((tx) => redeemPromo(tx, { ...quote }, { buyerId: second.id, subscriptionId: 'sub_2' })),
    ).rejects.toMatchObject({ statusCode: 409, message: PROMO_MESSAGES.usedUp });
    await expect(
      quotePromo(db, {
        capperId: owner.id,
        code: 'PLAN',
        buyerId: first.id,
        amountCents: 2000,
        for: 'subscription',
      }),
    ).rejects.toMatchObject({ message: PROMO_MESSAGES.usedByYou });
  });
});

describe('with Stripe', () => {
  it('asks Stripe for the discounted amount, and records the purchase and the use once it is paid', async () => {
    const stripe = await startStripeStandIn();
    const stripeApp = await createTestApp({
      paymentProvider: new StripeProvider({
        secretKey: 'sk_test_pickreel',
        webhookSecret: 'whsec_test_promo',
        apiBase: { host: '127.0.0.1', port: stripe.port, protocol: 'http' },
      }),
    });
    try {
      const owner = await registerUser(stripeApp.app, {}, nextIp());
      const buyer = await registerUser(stripeApp.app, {}, nextIp());
      const video = await createVideo(stripeApp, owner.id, { priceCents: 4000 });
      const made = await stripeApp.app.inject({
        method: 'POST',
        url: codesUrl(owner.username),
        payload: { code: 'STRIPE-5', kind: 'fixed', amountOff: 5 },
        headers: { cookie: owner.cookie },
      });
      expect(made.statusCode, made.body).toBe(200);
      const created = await stripeApp.app.inject({
        method: 'POST',
        url: '/api/create-payment-intent',
        payload: { videoId: video.id, promoCode: 'stripe-5' },
        headers: { cookie: buyer.cookie },
      });
      expect(created.statusCode, created.body).toBe(200);
      const { paymentIntentId, amount } = created.json();
      expect(amount).toBe(35);
      expect(stripe.intents.get(paymentIntentId)!.amount).toBe(3500);
      succeed(stripe.intents.get(paymentIntentId)!);
      const complete = await stripeApp.app.inject({
        method: 'POST',
        url: '/api/payment-complete',
        payload: { paymentIntentId, videoId: video.id },
        headers: { cookie: buyer.cookie },
      });
      expect(complete.statusCode, complete.body).toBe(200);
      const rows = rowsOf<{ amount_cents: number; status: string }>(
        await stripeApp.database.db.execute(sql`select p.amount_cents, r.status from purchases p
          join promo_redemptions r on r.payment_intent_id = p.payment_intent_id
          where p.payment_intent_id = ${paymentIntentId}`),
      );
      expect(rows).toEqual([{ amount_cents: 3500, status: 'redeemed' }]);
    } finally {
      await stripeApp.close();
      await stripe.close();
    }
  });
});
