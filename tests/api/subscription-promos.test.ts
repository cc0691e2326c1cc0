// Promo codes on subscriptions (docs/decisions/037, 039): the server quotes the code and charges the
// discounted amount; `once` discounts the first paid period (after any trial), `forever` every renewal on
// the stored terms even once the code is retired; uses and once-per-buyer are shared with single picks;
// a failed first charge takes no use; the check quotes a plan; the capper's ledger adds what was charged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMO_MESSAGES, type PromoCode, type PromoQuote } from '#common/schemas/promos.js';
import type { Subscription } from '#common/schemas/subscriptions.js';
import type { Db } from '#server/db/client.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { createVideo } from '../setup/fixtures.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { advanceSandboxClock, createPlan as createPlanFor, invoiceAmounts } from '../setup/subscriptions.js';

type User = { cookie: string; id: number; username: string };
let t: TestApp;
let db: Db;
let admin: User;
let ip = 0;
const nextIp = () => `10.137.${Math.floor(++ip / 250)}.${ip % 250}`;
const DAY = 24 * 3600;

const PAYS = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };
const CHARGES_FAIL = { ...PAYS, number: '4000000000000341' };

const user = () => registerUser(t.app, {}, nextIp());
const inject = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload && { payload }) });

/** A $10 weekly NBA plan unless `fields` say otherwise. */
const createPlan = (capper: User, fields: object = {}) =>
  createPlanFor(t.app, capper, { name: 'Weekly NBA', priceCents: 1000, interval: 'week', ...fields });

async function createCode(capper: User, body: object): Promise<PromoCode> {
  const response = await inject('POST', `/api/cappers/${capper.username}/promo-codes`, capper.cookie, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PromoCode>();
}

const subscribe = (planId: number, who: User, promoCode?: string, card: object = PAYS) =>
  inject('POST', `/api/plans/${planId}/subscribe`, who.cookie, { card, ...(promoCode && { promoCode }) });

async function subscribed(planId: number, who: User, promoCode?: string): Promise<Subscription> {
  const response = await subscribe(planId, who, promoCode);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Subscription>();
}

async function subscriptionOf(who: User, id: number): Promise<Subscription> {
  return (await inject('GET', '/api/subscriptions', who.cookie))
    .json<Subscription[]>()
    .find((s) => s.id === id)!;
}

const advance = (seconds: number) => advanceSandboxClock(t.app, admin, seconds);

const invoices = (subscriptionId: number) => invoiceAmounts(db, subscriptionId);

async function redemptions(codeId: number): Promise<string[]> {
  return rowsOf<{ status: string; subscription_id: string | null }>(
    await db.execute(
      sql`select status, subscription_id from promo_redemptions where promo_code_id = ${codeId} order by id`,
    ),
  ).map((row) => `${row.status}:${row.subscription_id ?? 'pick'}`);
}

const check = (who: User, body: object) => inject('POST', '/api/promo-codes/check', who.cookie, body);

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
  admin = await user();
  await db.execute(sql`update users set is_admin = true where id = ${admin.id}`);
  t.app.sessions.invalidateUser(admin.id);
});
afterAll(async () => {
  await t?.close();
});

describe('once and forever', () => {
  it('charges the discount on the first period only, or on every renewal even after the code is retired', async () => {
    const capper = await user();
    const plan = await createPlan(capper);
    const forever = await createCode(capper, {
      code: 'ALWAYS20',
      kind: 'percent',
      percentOff: 20,
      duration: 'forever',
    });
    await createCode(capper, { code: 'FIRST3', kind: 'fixed', amountOff: 3, duration: 'once' });
    const loyal = await user();
    const newcomer = await user();

    const always = await subscribed(plan.id, loyal, 'always20');
    expect(always.promo).toEqual({
      code: 'ALWAYS20',
      kind: 'percent',
      percentOff: 20,
      amountOffCents: null,
      duration: 'forever',
      active: true,
    });
    expect(always.nextChargeCents).toBe(800);
    const first = await subscribed(plan.id, newcomer, 'FIRST3');
    expect(first.promo).toMatchObject({ code: 'FIRST3', kind: 'fixed', amountOffCents: 300, active: false });
    expect(first.nextChargeCents).toBe(1000);
    expect(await invoices(always.id)).toEqual([800]);
    expect(await invoices(first.id)).toEqual([700]);

    // Retired after the fact: a live `forever` subscription keeps its discount, as Stripe keeps a coupon's.
    const retired = await inject(
      'POST',
      `/api/cappers/${capper.username}/promo-codes/${forever.id}/retire`,
      capper.cookie,
    );
    expect(retired.statusCode).toBe(200);
    await advance(8 * DAY);
    await advance(7 * DAY);
    expect(await invoices(always.id)).toEqual([800, 800, 800]);
    expect(await invoices(first.id)).toEqual([700, 1000, 1000]);
    expect((await subscriptionOf(loyal, always.id)).nextChargeCents).toBe(800);
    // A new subscriber cannot take the retired code.
    const late = await subscribe(plan.id, await user(), 'ALWAYS20');
    expect(late.statusCode).toBe(409);
    expect(late.json<{ message: string }>().message).toBe(PROMO_MESSAGES.retired);

    // The ledger adds what was charged.
    const earnings = (await inject('GET', '/api/user/earnings', capper.cookie)).json<{
      subscriptions: number;
    }>();
    expect(earnings.subscriptions).toBe(51);
  });

  it('with a trial, discounts the first period charged after it', async () => {
    const capper = await user();
    const plan = await createPlan(capper, { trialDays: 3 });
    await createCode(capper, { code: 'HALF-FIRST', kind: 'percent', percentOff: 50, duration: 'once' });
    const bettor = await user();
    const trial = await subscribed(plan.id, bettor, 'HALF-FIRST');
    expect(trial.status).toBe('trialing');
    expect(trial.promo).toMatchObject({ duration: 'once', active: true });
    expect(trial.nextChargeCents).toBe(500);
    expect(await invoices(trial.id)).toEqual([]);

    await advance(4 * DAY);
    const paid = await subscriptionOf(bettor, trial.id);
    expect(paid.status).toBe('active');
    expect(await invoices(trial.id)).toEqual([500]);
    expect(paid.promo?.active).toBe(false);
    expect(paid.nextChargeCents).toBe(1000);
    await advance(7 * DAY);
    expect(await invoices(trial.id)).toEqual([500, 1000]);
  });

  it('keeps the discount on a failed renewal retried with a new card', async () => {
    const capper = await user();
    const plan = await createPlan(capper, { trialDays: 1 });
    await createCode(capper, { code: 'TENFOREVER', kind: 'percent', percentOff: 10, duration: 'forever' });
    const bettor = await user();
    const response = await subscribe(plan.id, bettor, 'TENFOREVER', CHARGES_FAIL);
    expect(response.statusCode, response.body).toBe(201);
    const trial = response.json<Subscription>();
    await advance(2 * DAY);
    const pastDue = await subscriptionOf(bettor, trial.id);
    expect(pastDue.status).toBe('past_due');
    expect(pastDue.nextChargeCents).toBe(900);
    const mended = await t.app.inject({
      method: 'PUT',
      url: `/api/subscriptions/${trial.id}/card`,
      headers: { cookie: bettor.cookie },
      payload: { card: PAYS },
    });
    expect(mended.statusCode, mended.body).toBe(200);
    expect(mended.json<Subscription>().status).toBe('active');
    expect(await invoices(trial.id)).toEqual([900]);
  });
});

describe('the same rules as a single pick', () => {
  it('shares max uses and once per buyer with single picks; a failed first charge takes no use', async () => {
    const capper = await user();
    const plan = await createPlan(capper);
    const code = await createCode(capper, { code: 'TWICE', kind: 'percent', percentOff: 10, maxUses: 2 });
    const video = await createVideo(t, capper.id, { priceCents: 2000 });

    // A buyer who used it on a pick cannot use it again on a plan.
    const picker = await user();
    const intent = await inject('POST', '/api/create-payment-intent', picker.cookie, {
      videoId: video.id,
      promoCode: 'TWICE',
    });
    expect(intent.statusCode, intent.body).toBe(200);
    const again = await subscribe(plan.id, picker, 'TWICE');
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(PROMO_MESSAGES.usedByYou);

    // A refused first charge keeps nothing: no subscription, no use.
    const unlucky = await user();
    expect((await subscribe(plan.id, unlucky, 'TWICE', CHARGES_FAIL)).statusCode).toBe(402);
    expect(await redemptions(code.id)).toEqual(['reserved:pick']);

    const second = await subscribed(plan.id, unlucky, 'TWICE');
    expect(await invoices(second.id)).toEqual([900]);
    expect(await redemptions(code.id)).toEqual(['reserved:pick', `redeemed:${second.id}`]);

    // Both uses are taken: by a plan and by a pick alike.
    const third = await user();
    const usedUp = await subscribe(plan.id, third, 'TWICE');
    expect(usedUp.statusCode).toBe(409);
    expect(usedUp.json<{ message: string }>().message).toBe(PROMO_MESSAGES.usedUp);
    const pickUsedUp = await inject('POST', '/api/create-payment-intent', third.cookie, {
      videoId: video.id,
      promoCode: 'TWICE',
    });
    expect(pickUsedUp.statusCode).toBe(409);
    const listed = (await inject('GET', `/api/cappers/${capper.username}/promo-codes`, capper.cookie)).json<
      PromoCode[]
    >();
    expect(listed.find((c) => c.id === code.id)).toMatchObject({ uses: 1, reserved: 1, status: 'used_up' });
  });

  it('lets one of two subscribes at once take the last use', async () => {
    const capper = await user();
    const plan = await createPlan(capper);
    const code = await createCode(capper, { code: 'LAST-ONE', kind: 'percent', percentOff: 30, maxUses: 1 });
    const [a, b] = await Promise.all([user(), user()]);
    const answers = await Promise.all([subscribe(plan.id, a, 'LAST-ONE'), subscribe(plan.id, b, 'LAST-ONE')]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const winner = answers.find((answer) => answer.statusCode === 201)!.json<Subscription>();
    expect(await invoices(winner.id)).toEqual([700]);
    expect(await redemptions(code.id)).toEqual([`redeemed:${winner.id}`]);
    // The loser was charged nothing: the only invoice of the plan is the winner's.
    const planInvoices = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from subscription_invoices i
        join subscriptions s on s.id = i.subscription_id where s.plan_id = ${plan.id}`),
    );
    expect(Number(planInvoices[0]!.n)).toBe(1);
  });

  it("refuses an expired code, another capper's code, an unknown one; clamps at $0.50", async () => {
    const capper = await user();
    const other = await user();
    const plan = await createPlan(capper, { priceCents: 999 });
    const soon = await createCode(capper, { code: 'SOON', kind: 'percent', percentOff: 10 });
    await db.execute(
      sql`update promo_codes set expires_at = now() - interval '1 minute' where id = ${soon.id}`,
    );
    await createCode(other, { code: 'ELSEWHERE', kind: 'percent', percentOff: 10 });
    await createCode(capper, { code: 'HUGE', kind: 'fixed', amountOff: 50, duration: 'forever' });
    const bettor = await user();

    const expired = await subscribe(plan.id, bettor, 'SOON');
    expect(expired.statusCode).toBe(410);
    expect(expired.json<{ message: string }>().message).toBe(PROMO_MESSAGES.expired);
    const elsewhere = await subscribe(plan.id, bettor, 'ELSEWHERE');
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json<{ message: string }>().message).toBe(PROMO_MESSAGES.notFound);
    expect((await subscribe(plan.id, bettor, 'NOPE-NOPE')).statusCode).toBe(404);
    expect((await subscribe(plan.id, bettor, 'x'.repeat(41))).statusCode).toBe(400);
    expect((await inject('GET', '/api/subscriptions', bettor.cookie)).json()).toEqual([]);

    const clamped = await subscribed(plan.id, bettor, 'HUGE');
    expect(await invoices(clamped.id)).toEqual([50]);
    expect(clamped.nextChargeCents).toBe(50);
  });
});

describe('POST /api/promo-codes/check with a plan', () => {
  it('quotes the first paid period and the renewals', async () => {
    const capper = await user();
    const plan = await createPlan(capper, { priceCents: 1999, interval: 'month' });
    await createCode(capper, { code: 'ONCE5', kind: 'fixed', amountOff: 5 });
    await createCode(capper, { code: 'EVER25', kind: 'percent', percentOff: 25, duration: 'forever' });
    const bettor = await user();

    const once = await check(bettor, { planId: plan.id, code: 'once5' });
    expect(once.statusCode, once.body).toBe(200);
    expect(once.json<PromoQuote>()).toMatchObject({
      code: 'ONCE5',
      duration: 'once',
      originalPrice: 19.99,
      discount: 5,
      price: 14.99,
      renewalPrice: 19.99,
    });
    const ever = (await check(bettor, { planId: plan.id, code: 'EVER25' })).json<PromoQuote>();
    expect(ever).toMatchObject({ duration: 'forever', discount: 5, price: 14.99, renewalPrice: 14.99 });

    expect((await check(bettor, { planId: 999_999, code: 'EVER25' })).statusCode).toBe(404);
    expect((await check(bettor, { planId: plan.id, code: 'OTHER' })).statusCode).toBe(404);
    expect(
      (await check(bettor, { planId: plan.id, username: capper.username, code: 'EVER25' })).statusCode,
    ).toBe(400);
    await inject('POST', `/api/cappers/${capper.username}/plans/${plan.id}/retire`, capper.cookie);
    expect((await check(bettor, { planId: plan.id, code: 'EVER25' })).statusCode).toBe(409);
    // A pick's quote has no renewal.
    const video = await createVideo(t, capper.id, { priceCents: 1000 });
    expect(
      (await check(bettor, { videoId: video.id, code: 'EVER25' })).json<PromoQuote>().renewalPrice,
    ).toBeNull();
  });
});
