// Capper subscriptions (docs/decisions/037): plans and who may manage them; subscribing with the sandbox's
// cards, trials once per capper; picks granted per pick (open ones at subscribing, new ones while live),
// never beyond the plan's leagues or capper; cancelling; the test clock's renewals, failures and ends;
// revenue in the capper's ledger, never as a sale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan, Subscription } from '#common/schemas/subscriptions.js';
import type { Video } from '#common/schemas/videos.js';
import type { Db } from '#server/db/client.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { dispatchOutbox } from '#server/events/index.js';
import { DEFAULT_LANE } from '#server/jobs/index.js';
import type { PaymentProvider } from '#server/payments/provider.js';
import { PICK_LOCKED_MESSAGE } from '#server/features/picks/picks-service.js';
import { CARD_TRIES_PER_HOUR } from '#server/features/subscriptions/routes.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { advanceSandboxClock, createPlan as createPlanFor, invoiceAmounts } from '../setup/subscriptions.js';
import { inHours, postLinkPick } from '../setup/upload-requests.js';

type User = { cookie: string; id: number; username: string };
let t: TestApp;
let db: Db;
let admin: User;
let ip = 0;
const nextIp = () => `10.37.0.${++ip}`;
let game = 0;
const DAY = 24 * 3600;

const PAYS = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };
const DECLINES = { ...PAYS, number: '4000000000000002' };
const CHARGES_FAIL = { ...PAYS, number: '4000000000000341' };

const user = () => registerUser(t.app, {}, nextIp());

async function postPick(capper: User, league = 'NBA') {
  game += 1;
  const secret = `Secret ${league} side ${game}`;
  const legs = [
    {
      league,
      home: `Zebras ${game}`,
      away: `Okapis ${game}`,
      startsAt: inHours(48),
      market: 'moneyline',
      side: `Zebras ${game}`,
      odds: -110,
      units: 1,
    },
  ];
  const response = await postLinkPick(t.app, capper.cookie, legs, { emailInformation: secret });
  expect(response.statusCode, response.body).toBe(201);
  return { id: response.json<Video>().id, secret };
}

/** What the background work does: the outbox's dispatch, then the queued jobs. */
async function deliver() {
  await dispatchOutbox(db);
  await t.app.jobs.runUntilIdle(DEFAULT_LANE);
}

const inject = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload && { payload }) });

const createPlan = (capper: User, fields: object = {}) => createPlanFor(t.app, capper, fields);

const subscribe = (planId: number, who: User, card: object = PAYS) =>
  inject('POST', `/api/plans/${planId}/subscribe`, who.cookie, { card });

async function subscribed(planId: number, who: User, card: object = PAYS): Promise<Subscription> {
  const response = await subscribe(planId, who, card);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Subscription>();
}

async function subscriptionOf(who: User, id: number): Promise<Subscription> {
  const response = await inject('GET', '/api/subscriptions', who.cookie);
  expect(response.statusCode).toBe(200);
  return response.json<Subscription[]>().find((s) => s.id === id)!;
}

const advance = (seconds: number) => advanceSandboxClock(t.app, admin, seconds);

/** The video as `who` reads it, and the pick's legs route's status for them. */
async function reads(who: User, videoId: number): Promise<boolean> {
  const video = (await inject('GET', `/api/videos/${videoId}`, who.cookie)).json<Video>();
  const legs = await inject('GET', `/api/picks/${videoId}/legs`, who.cookie);
  const flag = (await inject('GET', `/api/videos/${videoId}/purchased`, who.cookie)).json<{
    purchased: boolean;
  }>();
  // The catalog's page of cards: the bulk read, newest first.
  const cards = (await inject('GET', '/api/videos?limit=60', who.cookie)).json<Video[]>();
  const card = cards.find((candidate) => candidate.id === videoId);
  expect(card, 'the pick is on the first page of the catalog').toBeDefined();
  const seesSelections = video.emailInformation !== undefined;
  expect(legs.statusCode === 200).toBe(seesSelections);
  expect(video.isPurchased).toBe(seesSelections);
  expect(flag.purchased).toBe(seesSelections);
  expect(card!.isPurchased).toBe(seesSelections);
  expect(card!.emailInformation).toBe(video.emailInformation);
  return seesSelections;
}

const invoices = (subscriptionId: number) => invoiceAmounts(db, subscriptionId);

async function earnings(capper: User) {
  return (await inject('GET', '/api/user/earnings', capper.cookie)).json<{
    sales: number;
    salesCount: number;
    subscriptions: number;
    total: number;
    available: number;
  }>();
}

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

describe('plans', () => {
  it('are created by their capper alone, within the limits, and listed publicly while active', async () => {
    const capper = await user();
    const other = await user();
    const url = `/api/cappers/${capper.username}/plans`;
    const valid = {
      name: 'All access',
      priceCents: 999,
      interval: 'week',
      leagues: ['NBA', 'NFL'],
      trialDays: 3,
    };
    expect((await inject('POST', url, undefined, valid)).statusCode).toBe(401);
    expect((await inject('POST', url, other.cookie, valid)).statusCode).toBe(403);
    const bad = [
      { name: '' },
      { name: 'x'.repeat(61) },
      { priceCents: 98 },
      { priceCents: 100_001 },
      { priceCents: 1999.5 },
      { interval: 'year' },
      { leagues: [] },
      { leagues: ['Cricket'] },
      { leagues: ['NBA', 'NBA'] },
      { leagues: ['General'] },
      { trialDays: 31 },
      { trialDays: -1 },
    ];
    for (const change of bad) {
      const response = await inject('POST', url, capper.cookie, { ...valid, ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json<{ message: string }>().message).toBeTruthy();
    }
    expect((await inject('POST', '/api/cappers/nobody-here-37/plans', capper.cookie, valid)).statusCode).toBe(
      404,
    );

    const weekly = await createPlan(capper, valid);
    expect(weekly).toMatchObject({
      name: 'All access',
      priceCents: 999,
      interval: 'week',
      trialDays: 3,
      active: true,
    });
    const season = await createPlan(capper, { name: 'Season', priceCents: 100_000, interval: 'season' });

    const retireUrl = `/api/cappers/${capper.username}/plans/${season.id}/retire`;
    expect((await inject('POST', retireUrl, other.cookie)).statusCode).toBe(403);
    expect(
      (await inject('POST', `/api/cappers/${other.username}/plans/${season.id}/retire`, other.cookie))
        .statusCode,
    ).toBe(404);
    const retired = await inject('POST', retireUrl, capper.cookie);
    expect(retired.statusCode).toBe(200);
    expect(retired.json<Plan>().active).toBe(false);

    const publicList = (await inject('GET', url)).json<Plan[]>();
    expect(publicList.map((plan) => plan.id)).toEqual([weekly.id]);
    expect((await inject('GET', url, other.cookie)).json<Plan[]>().map((p) => p.id)).toEqual([weekly.id]);
    const own = (await inject('GET', url, capper.cookie)).json<Plan[]>();
    expect(own.map((plan) => [plan.id, plan.active])).toEqual([
      [weekly.id, true],
      [season.id, false],
    ]);
  });
});

describe('subscribing', () => {
  let capper: User;
  let plan: Plan;
  let trialPlan: Plan;

  beforeAll(async () => {
    capper = await user();
    plan = await createPlan(capper);
    trialPlan = await createPlan(capper, { name: 'Try us', trialDays: 7, leagues: ['NFL'] });
  });

  it('refuses yourself, a retired plan, a declined card and a second live subscription', async () => {
    const bettor = await user();
    expect((await subscribe(plan.id, capper)).statusCode).toBe(400);
    expect(
      (await inject('POST', `/api/plans/${plan.id}/subscribe`, undefined, { card: PAYS })).statusCode,
    ).toBe(401);
    expect((await subscribe(999_999, bettor)).statusCode).toBe(404);
    const declined = await subscribe(plan.id, bettor, DECLINES);
    expect(declined.statusCode).toBe(402);
    expect(declined.json<{ message: string }>().message).toBe('Your card was declined.');
    // Saved, but its first charge fails: nothing is kept.
    expect((await subscribe(plan.id, bettor, CHARGES_FAIL)).statusCode).toBe(402);
    expect((await inject('GET', '/api/subscriptions', bettor.cookie)).json()).toEqual([]);

    const subscription = await subscribed(plan.id, bettor);
    expect(subscription).toMatchObject({ status: 'active', cardLast4: '4242', trialEnd: null });
    expect(subscription.nextRenewal).toBe(subscription.currentPeriodEnd);
    expect(await invoices(subscription.id)).toEqual([1999]);
    expect((await subscribe(plan.id, bettor)).statusCode).toBe(409);

    const retiredPlan = await createPlan(capper, { name: 'Old' });
    await inject('POST', `/api/cappers/${capper.username}/plans/${retiredPlan.id}/retire`, capper.cookie);
    expect((await subscribe(retiredPlan.id, bettor)).statusCode).toBe(409);

    const subscribers = await inject('GET', `/api/cappers/${capper.username}/subscribers`, capper.cookie);
    expect(subscribers.statusCode).toBe(200);
    expect(subscribers.json()).toMatchObject({
      count: 1,
      subscribers: [{ username: bettor.username, planName: 'NBA monthly', status: 'active' }],
    });
    expect(
      (await inject('GET', `/api/cappers/${capper.username}/subscribers`, bettor.cookie)).statusCode,
    ).toBe(403);
  });

  it('counts card attempts per user: a script testing cards is stopped', async () => {
    const tester = await user();
    for (let i = 0; i < CARD_TRIES_PER_HOUR; i++)
      expect((await subscribe(plan.id, tester, DECLINES)).statusCode).toBe(402);
    const stopped = await subscribe(plan.id, tester, PAYS);
    expect(stopped.statusCode).toBe(429);
    expect(stopped.headers['retry-after']).toBeDefined();
  });

  it('gives a trial once per bettor and capper, charging nothing until it ends', async () => {
    const bettor = await user();
    const trial = await subscribed(trialPlan.id, bettor);
    expect(trial.status).toBe('trialing');
    expect(trial.trialEnd).toBe(trial.currentPeriodEnd);
    expect(Date.parse(trial.trialEnd!) - Date.parse(trial.createdAt)).toBeGreaterThan(6.9 * DAY * 1000);
    expect(await invoices(trial.id)).toEqual([]);

    const cancelled = await inject('POST', `/api/subscriptions/${trial.id}/cancel`, bettor.cookie);
    expect(cancelled.json<Subscription>()).toMatchObject({
      status: 'canceled',
      nextRenewal: null,
      accessUntil: trial.trialEnd,
    });
    // The trial was had: another plan of this capper with a trial charges at once.
    const otherTrialPlan = await createPlan(capper, { name: 'Another trial', trialDays: 14 });
    const paid = await subscribed(otherTrialPlan.id, bettor);
    expect(paid.status).toBe('active');
    expect(await invoices(paid.id)).toEqual([1999]);
  });
});

describe('access per pick', () => {
  let capper: User;
  let otherCapper: User;
  let bettor: User;
  let outsider: User;
  let plan: Plan;
  let openNba: { id: number };
  let openNfl: { id: number };
  let othersNba: { id: number };

  beforeAll(async () => {
    capper = await user();
    otherCapper = await user();
    bettor = await user();
    outsider = await user();
    plan = await createPlan(capper);
    openNba = await postPick(capper, 'NBA');
    openNfl = await postPick(capper, 'NFL');
    othersNba = await postPick(otherCapper, 'NBA');
    await deliver();
  });

  it("grants the capper's open picks in the plan's leagues at subscribing, and nothing else", async () => {
    expect(await reads(bettor, openNba.id)).toBe(false);
    await subscribed(plan.id, bettor);
    expect(await reads(bettor, openNba.id)).toBe(true);
    const video = (await inject('GET', `/api/videos/${openNba.id}`, bettor.cookie)).json<Video>();
    expect(video.emailInformation).toMatch(/^Secret NBA side/);
    expect(await reads(bettor, openNfl.id)).toBe(false);
    expect(await reads(bettor, othersNba.id)).toBe(false);
    expect(await reads(outsider, openNba.id)).toBe(false);
  });

  it('grants each pick posted in those leagues while live, once the event is delivered', async () => {
    const newNba = await postPick(capper, 'NBA');
    const newNfl = await postPick(capper, 'NFL');
    await deliver();
    await deliver(); // a second delivery grants nothing twice
    expect(await reads(bettor, newNba.id)).toBe(true);
    expect(await reads(bettor, newNfl.id)).toBe(false);
    expect(await reads(outsider, newNba.id)).toBe(false);
    expect(await reads(otherCapper, newNba.id)).toBe(false);
    const rows = rowsOf(await db.execute(sql`select 1 from pick_access where video_id = ${newNba.id}`));
    expect(rows).toHaveLength(1);
  });

  it('locks a read pick as a sale does: its selections no longer change; title and price still do', async () => {
    const patch = (payload: object) => inject('PATCH', `/api/videos/${openNba.id}`, capper.cookie, payload);
    const refused = await patch({ emailInformation: 'Changed after a subscriber read it' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(PICK_LOCKED_MESSAGE);
    expect((await patch({ title: 'Still editable' })).statusCode).toBe(200);
    // A pick no subscriber reads stays open to revision.
    expect(
      (
        await inject('PATCH', `/api/videos/${openNfl.id}`, capper.cookie, {
          emailInformation: 'Revised NFL side',
        })
      ).statusCode,
    ).toBe(200);
  });

  it('is not a sale: no sale, no purchase, no receipt', async () => {
    const figures = await earnings(capper);
    expect(figures.salesCount).toBe(0);
    expect(figures.sales).toBe(0);
    expect(figures.subscriptions).toBe(19.99);
    expect(figures.available).toBe(19.99);
    const purchases = await inject('GET', '/api/user/purchases', bettor.cookie);
    expect(purchases.statusCode).toBe(200);
    expect(JSON.stringify(purchases.json())).not.toContain(String(openNba.id) + ',');
    const bought = rowsOf(await db.execute(sql`select 1 from purchases where user_id = ${bettor.id}`));
    expect(bought).toHaveLength(0);
    const sales = rowsOf(await db.execute(sql`select 1 from sales where seller_id = ${capper.id}`));
    expect(sales).toHaveLength(0);
  });
});

// The clock is shared by the whole file: these run last, in order, each on its own capper.
describe('the test clock', () => {
  it('is for admins only', async () => {
    const someone = await user();
    expect(
      (await inject('POST', '/api/payments/sandbox/clock', someone.cookie, { advanceSeconds: 60 }))
        .statusCode,
    ).toBe(403);
    expect(
      (await inject('POST', '/api/payments/sandbox/clock', undefined, { advanceSeconds: 60 })).statusCode,
    ).toBe(401);
    expect(
      (await inject('POST', '/api/payments/sandbox/clock', admin.cookie, { advanceSeconds: 0 })).statusCode,
    ).toBe(400);
  });

  it('renews due subscriptions: an invoice each period, in the ledger; cancelled and retired ones end instead', async () => {
    const capper = await user();
    const plan = await createPlan(capper, { priceCents: 500, interval: 'week', leagues: ['NBA'] });
    const renewing = await user();
    const cancelling = await user();
    const kept = await subscribed(plan.id, renewing);
    const cancelled = await subscribed(plan.id, cancelling);
    await inject('POST', `/api/subscriptions/${cancelled.id}/cancel`, cancelling.cookie);

    // Before the period ends, a cancelled subscriber still gets new picks.
    const midPeriod = await postPick(capper, 'NBA');
    await deliver();
    expect(await reads(cancelling, midPeriod.id)).toBe(true);

    await advance(8 * DAY);
    expect(await invoices(kept.id)).toEqual([500, 500]);
    expect(await subscriptionOf(renewing, kept.id)).toMatchObject({ status: 'active' });
    expect(await invoices(cancelled.id)).toEqual([500]);
    expect((await subscriptionOf(cancelling, cancelled.id)).status).toBe('ended');
    expect((await earnings(capper)).subscriptions).toBe(15);

    // Ended: no new pick reaches them; what was granted stays recorded.
    const afterEnd = await postPick(capper, 'NBA');
    await deliver();
    expect(await reads(cancelling, afterEnd.id)).toBe(false);
    expect(await reads(cancelling, midPeriod.id)).toBe(true);
    expect(await reads(renewing, afterEnd.id)).toBe(true);

    // A retired plan renews no one: the period runs out, then the subscription ends.
    await inject('POST', `/api/cappers/${capper.username}/plans/${plan.id}/retire`, capper.cookie);
    await advance(8 * DAY);
    expect(await invoices(kept.id)).toEqual([500, 500]);
    expect((await subscriptionOf(renewing, kept.id)).status).toBe('ended');
    const ended = rowsOf<{ end_reason: string }>(
      await db.execute(sql`select end_reason from subscriptions where id = ${kept.id}`),
    );
    expect(ended[0]!.end_reason).toBe('plan_retired');
  });

  it('charges the first period when a trial ends; a failing card goes past due, is retried daily, then ends', async () => {
    const capper = await user();
    const plan = await createPlan(capper, { priceCents: 700, interval: 'month', trialDays: 2 });
    const failing = await user();
    const fixing = await user();
    const trialOk = await user();
    const lost = await subscribed(plan.id, failing, CHARGES_FAIL);
    const mended = await subscribed(plan.id, fixing, CHARGES_FAIL);
    const ok = await subscribed(plan.id, trialOk);
    expect(lost.status).toBe('trialing');

    await advance(2 * DAY + 60);
    expect(await invoices(ok.id)).toEqual([700]);
    expect((await subscriptionOf(trialOk, ok.id)).status).toBe('active');
    const pastDue = await subscriptionOf(failing, lost.id);
    expect(pastDue.status).toBe('past_due');
    expect(Date.parse(pastDue.accessUntil!) - Date.parse(lost.trialEnd!)).toBe(3 * DAY * 1000);
    expect(await invoices(lost.id)).toEqual([]);

    // In grace: still live, new picks still reach them.
    const inGrace = await postPick(capper, 'NBA');
    await deliver();
    expect(await reads(failing, inGrace.id)).toBe(true);

    // A new card mends it at once: charged, active again.
    const changed = await inject('PUT', `/api/subscriptions/${mended.id}/card`, fixing.cookie, {
      card: PAYS,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<Subscription>()).toMatchObject({ status: 'active', cardLast4: '4242' });
    expect(await invoices(mended.id)).toEqual([700]);
    expect(
      (await inject('PUT', `/api/subscriptions/${mended.id}/card`, failing.cookie, { card: PAYS }))
        .statusCode,
    ).toBe(404);
    expect(
      (await inject('PUT', `/api/subscriptions/${lost.id}/card`, failing.cookie, { card: DECLINES }))
        .statusCode,
    ).toBe(402);

    await advance(DAY);
    expect((await subscriptionOf(failing, lost.id)).status).toBe('past_due');
    await advance(DAY);
    expect((await subscriptionOf(failing, lost.id)).status).toBe('past_due');
    await advance(DAY);
    expect((await subscriptionOf(failing, lost.id)).status).toBe('ended');
    expect(await invoices(lost.id)).toEqual([]);
    const reason = rowsOf<{ end_reason: string }>(
      await db.execute(sql`select end_reason from subscriptions where id = ${lost.id}`),
    );
    expect(reason[0]!.end_reason).toBe('payment_failed');

    const afterEnd = await postPick(capper, 'NBA');
    await deliver();
    expect(await reads(failing, afterEnd.id)).toBe(false);
    expect(await reads(fixing, afterEnd.id)).toBe(true);
    expect((await earnings(capper)).subscriptions).toBe(14);

    const events = rowsOf<{ type: string }>(
      await db.execute(
        sql`select distinct type from domain_events where type like 'subscription.%' order by type`,
      ),
    ).map((row) => row.type);
    expect(events).toEqual([
      'subscription.ended',
      'subscription.renewal_failed',
      'subscription.renewed',
      'subscription.started',
    ]);
  });
});

describe('with Stripe', () => {
  it('has no test clock and no subscriptions yet', async () => {
    const stripeLike = {
      name: 'stripe',
      createIntent: async () => ({ id: 'pi_x', clientSecret: 'x' }),
      retrieveIntent: async () => undefined,
      cancelIntent: async () => true,
      refundIntent: async () => {},
    } satisfies PaymentProvider;
    const other = await createTestApp({ paymentProvider: stripeLike });
    try {
      const boss = await registerUser(other.app, {}, nextIp());
      await other.database.db.execute(sql`update users set is_admin = true where id = ${boss.id}`);
      other.app.sessions.invalidateUser(boss.id);
      const clock = await other.app.inject({
        method: 'POST',
        url: '/api/payments/sandbox/clock',
        headers: { cookie: boss.cookie },
        payload: { advanceSeconds: 60 },
      });
      expect(clock.statusCode).toBe(404);
      const capper = await registerUser(other.app, {}, nextIp());
      const created = await other.app.inject({
        method: 'POST',
        url: `/api/cappers/${capper.username}/plans`,
        headers: { cookie: capper.cookie },
        payload: { name: 'Plan', priceCents: 999, interval: 'month', leagues: ['NBA'] },
      });
      const planId = created.json<Plan>().id;
      const response = await other.app.inject({
        method: 'POST',
        url: `/api/plans/${planId}/subscribe`,
        headers: { cookie: boss.cookie },
        payload: { card: PAYS },
      });
      expect(response.statusCode).toBe(501);
    } finally {
      await other.close();
    }
  });
});
