import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analytics } from '#common/schemas/analytics.js';
import { createPurchase, createVideo } from '../setup/fixtures.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/user/analytics', () => {
  it("gives a capper's sales and views per day and per video, zero-filled", async () => {
    const capper = await registerUser(t.app, {}, '10.7.0.1');
    const buyer = await registerUser(t.app, {}, '10.7.0.2');
    const hit = await createVideo(t, capper.id, { priceCents: 2000, title: 'Hit pick' });
    await createVideo(t, capper.id, { title: 'Quiet pick' });
    await createPurchase(t, buyer.id, hit);
    for (const cookie of [buyer.cookie, capper.cookie]) {
      await t.app.inject({ method: 'POST', url: `/api/videos/${hit.id}/view`, headers: { cookie } });
    }

    const response = await t.app.inject({
      method: 'GET',
      url: '/api/user/analytics',
      headers: { cookie: capper.cookie },
    });
    expect(response.statusCode).toBe(200);
    const analytics = response.json() as Analytics;
    expect(analytics.range).toBe('day');
    expect(analytics.buckets).toHaveLength(30);
    const today = analytics.buckets.at(-1)!;
    expect(today).toMatchObject({ sales: 1, revenue: 20, views: 2 });
    expect(analytics.buckets.slice(0, -1).every((b) => b.sales === 0 && b.views === 0)).toBe(true);
    expect(analytics.videos[0]).toEqual({
      id: hit.id,
      title: 'Hit pick',
      views: 2,
      sales: 1,
      revenue: 20,
      conversion: 0.5,
    });
    expect(analytics.videos[1]).toMatchObject({ title: 'Quiet pick', sales: 0, conversion: 0 });
    expect(analytics.totals).toEqual({ views: 2, sales: 1, revenue: 20 });

    const weekly = (
      await t.app.inject({
        method: 'GET',
        url: '/api/user/analytics?range=week',
        headers: { cookie: capper.cookie },
      })
    ).json() as Analytics;
    expect(weekly.buckets).toHaveLength(12);
    expect(weekly.buckets.at(-1)).toMatchObject({ sales: 1, views: 2 });
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/user/analytics?range=year',
          headers: { cookie: capper.cookie },
        })
      ).statusCode,
    ).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/user/analytics' })).statusCode).toBe(401);
  });
});
