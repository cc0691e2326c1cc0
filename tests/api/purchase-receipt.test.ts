// A purchase's receipt (GET /api/purchases/{id}): the buyer's only, 404 for anyone else (its existence not
// revealed), with the pick's legs, their status and result once graded, and the sealed pick to verify; and
// the purchases list's outcome for the dashboard's chips.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalBytes } from '#common/pick-seal.js';
import type { Purchase } from '#common/schemas/payments.js';
import type { PurchaseReceipt } from '#common/schemas/purchases.js';
import type { Video } from '#common/schemas/videos.js';
import { setAdmin } from '#server/features/auth/users-repository.js';
import { RECEIPT_NOT_FOUND } from '#server/features/purchases/routes.js';
import { finishGame, marketGame, marketLeg } from '../setup/market.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, VALID_FIELDS } from '../setup/upload-requests.js';

type User = { cookie: string; id: number; username: string };
let t: TestApp;
let capper: User;
let buyer: User;
let other: User;
let admin: User;
let ip = 0;
const nextIp = () => `10.35.${Math.floor(++ip / 250)}.${ip % 250}`;
const LATER = new Date(Date.now() + 1000 * 3600_000);
const CARD = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2099, cvc: '123' };

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, ...(cookie && { headers: { cookie } }) });
const postJson = (url: string, payload: object, cookie: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: { cookie } });

async function postPick(fields: Record<string, string>): Promise<Video> {
  const response = await postVideo(t.app, capper.cookie, {
    ...VALID_FIELDS,
    title: 'Friday card',
    description: 'Why the line is wrong',
    isExternalVideo: 'true',
    externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    duration: '',
    price: '9.99',
    ...fields,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Video>();
}

/** Pays with the sandbox's card and records the purchase: its id. */
async function buy(videoId: number, user = buyer): Promise<number> {
  const intent = await postJson('/api/create-payment-intent', { videoId }, user.cookie);
  expect(intent.statusCode, intent.body).toBe(200);
  const { clientSecret, paymentIntentId } = intent.json<{ clientSecret: string; paymentIntentId: string }>();
  const card = await postJson('/api/payments/sandbox/confirm', { clientSecret, card: CARD }, user.cookie);
  expect(card.statusCode, card.body).toBe(200);
  const complete = await postJson('/api/payment-complete', { paymentIntentId, videoId }, user.cookie);
  expect(complete.statusCode, complete.body).toBe(200);
  return complete.json<{ purchaseId: number }>().purchaseId;
}

beforeAll(async () => {
  t = await createTestApp({ market: { leagues: 'NBA' } });
  capper = await registerUser(t.app, {}, nextIp());
  buyer = await registerUser(t.app, {}, nextIp());
  other = await registerUser(t.app, {}, nextIp());
  admin = await registerUser(t.app, {}, nextIp());
  await setAdmin(t.database.db, admin.id, true);
});

afterAll(async () => {
  await t?.close();
});

describe('GET /api/purchases/{id}', () => {
  it("is the buyer's only: 404 with one message for other users, admins, the capper and unknown ids", async () => {
    const game = await marketGame(t);
    const video = await postPick({ legs: JSON.stringify([marketLeg(game)]) });
    const id = await buy(video.id);

    expect((await get(`/api/purchases/${id}`, buyer.cookie)).statusCode).toBe(200);
    for (const user of [other, admin, capper]) {
      const response = await get(`/api/purchases/${id}`, user.cookie);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: RECEIPT_NOT_FOUND });
    }
    // An id nobody has answers exactly as another buyer's does.
    const missing = await get(`/api/purchases/${id + 100_000}`, buyer.cookie);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: RECEIPT_NOT_FOUND });
    // Signed out: sign in first; a malformed id is a 400, not a 500.
    expect((await get(`/api/purchases/${id}`)).statusCode).toBe(401);
    expect((await get('/api/purchases/1e3', buyer.cookie)).statusCode).toBe(400);
  });

  it('gives the amount, the payment method, the legs open, and a sealed pick that matches the commitment', async () => {
    const game = await marketGame(t);
    const video = await postPick({
      legs: JSON.stringify([marketLeg(game)]),
      emailInformation: 'Home side, one unit',
    });
    const id = await buy(video.id);
    const receipt = (await get(`/api/purchases/${id}`, buyer.cookie)).json<PurchaseReceipt>();
    expect(receipt).toMatchObject({
      id,
      videoId: video.id,
      title: 'Friday card',
      capper: { username: capper.username },
      amount: 9.99,
      currency: 'usd',
      paymentMethod: 'sandbox',
      selections: 'Home side, one unit',
      outcome: { status: 'open', result: null, unitsWon: null, removed: null },
    });
    const pick = receipt.pick!;
    expect(pick.legs).toHaveLength(1);
    expect(pick.legs[0]).toMatchObject({ home: game.game.home, away: game.game.away, market: 'spread' });
    expect(pick.states[0]).toMatchObject({ result: null, eventStatus: 'scheduled' });
    // The buyer can recompute the commitment from what they bought.
    const hash = createHash('sha256').update(canonicalBytes(pick.sealed)).digest('hex');
    expect(hash).toBe(pick.commitment);
    expect((await get(`/api/picks/${video.id}`)).json<{ commitment: string }>().commitment).toBe(hash);
  });

  it('after grading: the result and units on the receipt and in the purchases list', async () => {
    const game = await marketGame(t);
    const video = await postPick({ legs: JSON.stringify([marketLeg(game)]) });
    const id = await buy(video.id);
    const before = (await get('/api/user/purchases', buyer.cookie)).json<Purchase[]>();
    expect(before.find((p) => p.id === id)?.outcome).toEqual({
      status: 'open',
      result: null,
      unitsWon: null,
      removed: null,
    });

    await finishGame(t, game, { home: 110, away: 100 }, LATER);

    const receipt = (await get(`/api/purchases/${id}`, buyer.cookie)).json<PurchaseReceipt>();
    expect(receipt.outcome).toEqual({ status: 'graded', result: 'win', unitsWon: 0.93, removed: null });
    expect(receipt.pick!.states[0]).toMatchObject({
      result: 'win',
      eventStatus: 'final',
      homeScore: 110,
      awayScore: 100,
    });
    const after = (await get('/api/user/purchases', buyer.cookie)).json<Purchase[]>();
    expect(after.find((p) => p.id === id)?.outcome).toEqual({
      status: 'graded',
      result: 'win',
      unitsWon: 0.93,
      removed: null,
    });
  });

  it('an unverified pick: its selections, no pick and no outcome', async () => {
    const video = await postPick({ emailInformation: 'Lakers -3.5' });
    const id = await buy(video.id);
    const receipt = (await get(`/api/purchases/${id}`, buyer.cookie)).json<PurchaseReceipt>();
    expect(receipt).toMatchObject({ selections: 'Lakers -3.5', pick: null, outcome: null });
    const list = (await get('/api/user/purchases', buyer.cookie)).json<Purchase[]>();
    expect(list.find((p) => p.id === id)?.outcome).toBeNull();
  });
});

describe('GET /api/user/sales/by-video', () => {
  it("counts the capper's sales of each video, and only theirs", async () => {
    const video = await postPick({ emailInformation: 'Celtics ML' });
    await buy(video.id, buyer);
    await buy(video.id, other);
    const rows = (await get('/api/user/sales/by-video', capper.cookie)).json<
      { videoId: number; sales: number; amount: number }[]
    >();
    expect(rows.find((row) => row.videoId === video.id)).toEqual({
      videoId: video.id,
      sales: 2,
      amount: 19.98,
    });
    expect((await get('/api/user/sales/by-video', buyer.cookie)).json()).toEqual([]);
    expect((await get('/api/user/sales/by-video')).statusCode).toBe(401);
  });
});
