// Never selling what is decided (decisions 'Selling only what is still secret and undecided'): a graded pick is
// refused on every purchase path with a 409 that says it is graded and free to read, a payment that gets
// through after the start is refunded (sandbox and Stripe's webhook alike), and a graded pick's selections
// are readable by anyone, signed out too.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SealedPick } from '#common/pick-seal.js';
import {
  GRADED_BEFORE_PAYMENT,
  GRADED_NOT_SOLD,
  SALES_CLOSED_BEFORE_PAYMENT,
} from '#common/schemas/payments.js';
import type { PickView } from '#common/schemas/pick-views.js';
import type { Video } from '#common/schemas/videos.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { cancelIntentsOfClosedPicks } from '#server/features/payments/index.js';
import { SandboxProvider } from '#server/payments/sandbox-provider.js';
import { StripeProvider } from '#server/payments/stripe-provider.js';
import { finishGame, inHours, marketGame, marketLeg, type TestGame } from '../setup/market.js';
import { startStripeStandIn, type StripeStandIn } from '../setup/stripe-stand-in.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, VALID_FIELDS } from '../setup/upload-requests.js';

type User = { cookie: string; id: number; username: string };
const HOUR = 3600_000;
const LATER = new Date(Date.now() + 1000 * HOUR);
const CARD = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2099, cvc: '123' };
const SELECTIONS = 'Home side on the spread, 1 unit';
const WEBHOOK_SECRET = 'whsec_test_secret_for_checkout_decided';

let ip = 0;
const nextIp = () => `10.35.${Math.floor(++ip / 250)}.${ip % 250}`;

/** A verified pick (one leg on a market game) posted by `capper` on app `t`. */
async function postPick(t: TestApp, capper: User, game: TestGame): Promise<Video> {
  const response = await postVideo(t.app, capper.cookie, {
    ...VALID_FIELDS,
    title: 'Friday card',
    description: 'Why the line is wrong',
    emailInformation: SELECTIONS,
    isExternalVideo: 'true',
    externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    duration: '',
    legs: JSON.stringify([marketLeg(game)]),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Video>();
}

const postJson = (t: TestApp, url: string, payload: object, cookie: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: { cookie } });
const get = (t: TestApp, url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, ...(cookie && { headers: { cookie } }) });

async function intentRow(t: TestApp, id: string): Promise<{ status: string; refund_reason: string | null }> {
  return rowsOf<{ status: string; refund_reason: string | null }>(
    await t.database.db.execute(sql`select status, refund_reason from payment_intents where id = ${id}`),
  )[0]!;
}

async function purchasesOf(t: TestApp, buyerId: number, videoId: number): Promise<number> {
  return Number(
    rowsOf<{ n: number }>(
      await t.database.db.execute(
        sql`select count(*) as n from purchases where user_id = ${buyerId} and video_id = ${videoId}`,
      ),
    )[0]!.n,
  );
}

/** The game starts two seconds from now, and the test waits them out (the app's clock is the real one). */
async function startNow(t: TestApp, game: TestGame) {
  const start = new Date(Math.ceil((Date.now() + 2000) / 1000) * 1000);
  t.standIn!.moveStart(game.game.id, start.toISOString().replace(/\.\d{3}Z$/, 'Z'));
  await t.app.market!.refreshNow(game.game.league, { schedule: true });
  await new Promise((resolve) => setTimeout(resolve, start.getTime() - Date.now() + 100));
}

describe('with the sandbox provider', () => {
  let t: TestApp;
  let capper: User;

  beforeAll(async () => {
    t = await createTestApp({ market: { leagues: 'NBA' } });
    capper = await registerUser(t.app, {}, nextIp());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses to start paying for a graded pick: 409, graded and free to read', async () => {
    const game = await marketGame(t);
    const video = await postPick(t, capper, game);
    await finishGame(t, game, { home: 110, away: 100 }, LATER);
    const buyer = await registerUser(t.app, {}, nextIp());
    const intent = await postJson(t, '/api/create-payment-intent', { videoId: video.id }, buyer.cookie);
    expect(intent.statusCode, intent.body).toBe(409);
    expect(intent.json().message).toBe(GRADED_NOT_SOLD);
    expect(GRADED_NOT_SOLD).toMatch(/graded/);
    expect(GRADED_NOT_SOLD).toMatch(/free to read/);
  });

  it('refuses the card for an intent made before grading, whether or not the sweep cancelled it first', async () => {
    const game = await marketGame(t);
    const video = await postPick(t, capper, game);
    const early = await registerUser(t.app, {}, nextIp());
    const swept = await registerUser(t.app, {}, nextIp());
    const open = (
      await postJson(t, '/api/create-payment-intent', { videoId: video.id }, early.cookie)
    ).json();
    const other = (
      await postJson(t, '/api/create-payment-intent', { videoId: video.id }, swept.cookie)
    ).json();
    expect(open.amount).toBe(25);
    await finishGame(t, game, { home: 110, away: 100 }, LATER);

    // Before any sweep: the confirmation cancels it and says why.
    const card = await postJson(
      t,
      '/api/payments/sandbox/confirm',
      { clientSecret: open.clientSecret, card: CARD },
      early.cookie,
    );
    expect(card.statusCode, card.body).toBe(409);
    expect(card.json().message).toBe(GRADED_BEFORE_PAYMENT);
    expect((await intentRow(t, open.paymentIntentId)).status).toBe('canceled');

    // The sweep cancels a graded pick's intents with the same sentence.
    await cancelIntentsOfClosedPicks(t.database.db, new SandboxProvider(t.database.db), t.app.log);
    expect((await intentRow(t, other.paymentIntentId)).status).toBe('canceled');
    const late = await postJson(
      t,
      '/api/payments/sandbox/confirm',
      { clientSecret: other.clientSecret, card: CARD },
      swept.cookie,
    );
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json().message).toBe(GRADED_BEFORE_PAYMENT);

    for (const buyer of [early, swept]) {
      expect(await purchasesOf(t, buyer.id, video.id)).toBe(0);
      expect((await get(t, `/api/videos/${video.id}/purchased`, buyer.cookie)).json()).toEqual({
        purchased: false,
      });
    }
  });

  it('an intent cancelled at the start and tried once graded: told it is now free to read', async () => {
    const game = await marketGame(t, { startsAt: inHours(3) });
    const video = await postPick(t, capper, game);
    const buyer = await registerUser(t.app, {}, nextIp());
    const open = (
      await postJson(t, '/api/create-payment-intent', { videoId: video.id }, buyer.cookie)
    ).json();
    await startNow(t, game);
    await cancelIntentsOfClosedPicks(t.database.db, new SandboxProvider(t.database.db), t.app.log);
    const started = await postJson(
      t,
      '/api/payments/sandbox/confirm',
      { clientSecret: open.clientSecret, card: CARD },
      buyer.cookie,
    );
    expect(started.statusCode).toBe(409);
    expect(started.json().message).toBe(SALES_CLOSED_BEFORE_PAYMENT);
    await finishGame(t, game, { home: 90, away: 100 }, LATER);
    const graded = await postJson(
      t,
      '/api/payments/sandbox/confirm',
      { clientSecret: open.clientSecret, card: CARD },
      buyer.cookie,
    );
    expect(graded.statusCode).toBe(409);
    expect(graded.json().message).toBe(GRADED_BEFORE_PAYMENT);
    expect(await purchasesOf(t, buyer.id, video.id)).toBe(0);
  });

  it('a payment recorded as succeeded after grading unlocks nothing: refunded, not granted', async () => {
    const game = await marketGame(t);
    const video = await postPick(t, capper, game);
    const buyer = await registerUser(t.app, {}, nextIp());
    const open = (
      await postJson(t, '/api/create-payment-intent', { videoId: video.id }, buyer.cookie)
    ).json();
    await finishGame(t, game, { home: 110, away: 100 }, LATER);
    // The provider took it anyway (the race the sweep and the confirmation close in the sandbox).
    await t.database.db.execute(
      sql`update payment_intents set status = 'succeeded', updated_at = now() where id = ${open.paymentIntentId}`,
    );
    const complete = await postJson(
      t,
      '/api/payment-complete',
      { paymentIntentId: open.paymentIntentId, videoId: video.id },
      buyer.cookie,
    );
    expect(complete.statusCode, complete.body).toBe(409);
    expect(complete.json().message).toMatch(/has been refunded\.$/);
    expect(await intentRow(t, open.paymentIntentId)).toEqual({
      status: 'refunded',
      refund_reason: 'sales_closed',
    });
    expect(await purchasesOf(t, buyer.id, video.id)).toBe(0);
  });

  it("a graded pick's selections and legs are readable by anyone, signed out too", async () => {
    const game = await marketGame(t);
    const video = await postPick(t, capper, game);
    // Before grading, secret to a visitor.
    expect((await get(t, `/api/picks/${video.id}/reveal`)).statusCode).toBe(403);
    expect((await get(t, `/api/videos/${video.id}`)).json<Video>().emailInformation).toBeUndefined();
    await finishGame(t, game, { home: 110, away: 100 }, LATER);
    const reveal = await get(t, `/api/picks/${video.id}/reveal`);
    expect(reveal.statusCode, reveal.body).toBe(200);
    const { sealed } = reveal.json<{ sealed: SealedPick }>();
    expect(sealed.selections).toBe(SELECTIONS);
    expect(sealed.legs).toHaveLength(1);
    expect(sealed.legs[0]).toMatchObject({ home: game.game.home, away: game.game.away });
    expect((await get(t, `/api/picks/${video.id}`)).json<PickView>()).toMatchObject({
      status: 'graded',
      result: 'win',
    });
  });
});

describe("with Stripe: the webhook's fulfilment", () => {
  let t: TestApp;
  let stripe: StripeStandIn;
  let capper: User;
  const signer = new Stripe('sk_test_signer');

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    t = await createTestApp({
      market: { leagues: 'NBA' },
      paymentProvider: new StripeProvider({
        secretKey: 'sk_test_pickreel',
        webhookSecret: WEBHOOK_SECRET,
        apiBase: { host: '127.0.0.1', port: stripe.port, protocol: 'http' },
      }),
    });
    capper = await registerUser(t.app, {}, nextIp());
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  function succeededWebhook(eventId: string, intentId: string) {
    const payload = JSON.stringify({
      id: eventId,
      object: 'event',
      type: 'payment_intent.succeeded',
      livemode: false,
      data: { object: stripe.intents.get(intentId) },
    });
    return t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
        'sec-fetch-site': 'cross-site',
      },
    });
  }

  /** Stripe charged the card anyway: the browser confirmed it before any cancel reached Stripe. */
  function chargedAtStripe(intentId: string) {
    const remote = stripe.intents.get(intentId)!;
    remote.status = 'succeeded';
    remote.amount_received = remote.amount;
  }

  it('refuses to start paying for a graded pick with the same 409', async () => {
    const game = await marketGame(t);
    const video = await postPick(t, capper, game);
    await finishGame(t, game, { home: 110, away: 100 }, LATER);
    const buyer = await registerUser(t.app, {}, nextIp());
    const intent = await postJson(t, '/api/create-payment-intent', { videoId: video.id }, buyer.cookie);
    expect(intent.statusCode, intent.body).toBe(409);
    expect(intent.json().message).toBe(GRADED_NOT_SOLD);
  });

  it('a payment that succeeds after the start is refunded at Stripe and grants nothing', async () => {
    const game = await marketGame(t, { startsAt: inHours(3) });
    const video = await postPick(t, capper, game);
    const buyer = await registerUser(t.app, {}, nextIp());
    const open = (
      await postJson(t, '/api/create-payment-intent', { videoId: video.id }, buyer.cookie)
    ).json();
    await startNow(t, game);
    chargedAtStripe(open.paymentIntentId);
    const delivery = await succeededWebhook('evt_decided_started', open.paymentIntentId);
    expect(delivery.statusCode, delivery.body).toBe(200);
    expect(await intentRow(t, open.paymentIntentId)).toEqual({
      status: 'refunded',
      refund_reason: 'sales_closed',
    });
    expect(stripe.refunds.filter((refund) => refund.payment_intent === open.paymentIntentId)).toHaveLength(1);
    expect(await purchasesOf(t, buyer.id, video.id)).toBe(0);
  });

  it('a payment that succeeds once the pick is graded is refunded at Stripe and grants nothing', async () => {
    const game = await marketGame(t);
    const video = await postPick(t, capper, game);
    const buyer = await registerUser(t.app, {}, nextIp());
    const open = (
      await postJson(t, '/api/create-payment-intent', { videoId: video.id }, buyer.cookie)
    ).json();
    await finishGame(t, game, { home: 110, away: 100 }, LATER);
    chargedAtStripe(open.paymentIntentId);
    const delivery = await succeededWebhook('evt_decided_graded', open.paymentIntentId);
    expect(delivery.statusCode, delivery.body).toBe(200);
    expect(await intentRow(t, open.paymentIntentId)).toEqual({
      status: 'refunded',
      refund_reason: 'sales_closed',
    });
    expect(stripe.refunds.filter((refund) => refund.payment_intent === open.paymentIntentId)).toHaveLength(1);
    expect(await purchasesOf(t, buyer.id, video.id)).toBe(0);
    // The browser's own call afterwards hears the refund, not a purchase.
    const complete = await postJson(
      t,
      '/api/payment-complete',
      { paymentIntentId: open.paymentIntentId, videoId: video.id },
      buyer.cookie,
    );
    expect(complete.statusCode).toBe(409);
    expect(complete.json().message).toMatch(/has been refunded\.$/);
  });
});
