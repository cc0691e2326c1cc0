// In-app alerts of a followed capper's new pick (docs/decisions/035): pick.posted → the durable subscriber →
// the fan-out job → one alert per follower, shown with the pick's title and price only, marked read by
// their owner alone, and counted live over server-sent events.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationPage, Unread } from '#common/schemas/notifications.js';
import type { Video } from '#common/schemas/videos.js';
import type { Db } from '#server/db/client.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { dispatchOutbox, type StoredEvent } from '#server/events/index.js';
import { DEFAULT_LANE, enqueue } from '#server/jobs/index.js';
import { alertFollowersOfPicks, pickAlertsJob } from '#server/features/notifications/index.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { inHours, postLinkPick } from '../setup/upload-requests.js';
import { waitFor } from '../setup/wait-for.js';

type User = { cookie: string; id: number; username: string };
let t: TestApp;
let db: Db;
let capper: User;
let early: User;
let late: User;
let ip = 0;
const nextIp = () => `10.32.0.${++ip}`;
let game = 0;
const SECRET = 'Zebras +7.5 (3 units)';

function leg() {
  game += 1;
  return {
    league: 'NBA',
    home: `Zebras ${game}`,
    away: `Okapis ${game}`,
    startsAt: inHours(24),
    market: 'spread',
    side: `Zebras ${game}`,
    line: 7.5,
    odds: -110,
    units: 3,
  };
}

async function postPick(user: User, fields: Record<string, string> = {}) {
  const legs = [leg()];
  const response = await postLinkPick(t.app, user.cookie, legs, { emailInformation: SECRET, ...fields });
  expect(response.statusCode, response.body).toBe(201);
  return { video: response.json<Video>(), legs };
}

/** What the background work does: the outbox's dispatch, then the queued jobs (not media's). */
async function deliver() {
  await dispatchOutbox(db);
  await t.app.jobs.runUntilIdle(DEFAULT_LANE);
}

const follow = (capperName: string, cookie: string) =>
  t.app.inject({ method: 'POST', url: `/api/cappers/${capperName}/follow`, headers: { cookie } });
const list = (cookie: string, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/notifications${query}`, headers: { cookie } });
const markRead = (cookie: string, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/notifications/read', headers: { cookie }, payload });

async function alertRows(videoId: number) {
  return rowsOf<{ user_id: number }>(
    await db.execute(sql`select user_id from notifications where video_id = ${videoId} order by user_id`),
  ).map((row) => Number(row.user_id));
}

async function eventTime(eventId: number): Promise<Date> {
  const [row] = rowsOf<{ at: string }>(
    await db.execute(sql`select created_at::text as at from domain_events where id = ${eventId}`),
  );
  return new Date(row!.at);
}

async function eventOf(videoId: number): Promise<StoredEvent<'pick.posted'>> {
  const [row] = rowsOf<{ id: string; payload: { videoId: number; capperId: number } | string }>(
    await db.execute(
      sql`select id::text as id, payload from domain_events where type = 'pick.posted' and (payload->>'videoId')::int = ${videoId}`,
    ),
  );
  const payload = typeof row!.payload === 'string' ? JSON.parse(row!.payload) : row!.payload;
  return { type: 'pick.posted', id: Number(row!.id), ...payload };
}

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
  capper = await registerUser(t.app, {}, nextIp());
  early = await registerUser(t.app, {}, nextIp());
  late = await registerUser(t.app, {}, nextIp());
  await db.execute(sql`update users set display_name = 'Sharp Sam' where id = ${capper.id}`);
  expect((await follow(capper.username, early.cookie)).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe('a followed capper posts a pick', () => {
  let video: Video;
  let legs: ReturnType<typeof leg>[];

  beforeAll(async () => {
    ({ video, legs } = await postPick(capper, { title: 'Friday night special', price: '12.99' }));
    // Followed only after the pick was posted: no alert for it.
    expect((await follow(capper.username, late.cookie)).statusCode).toBe(200);
  });

  it('alerts each follower whose follow came first, once, even when the dispatch and the job run twice', async () => {
    await deliver();
    await deliver();
    expect(await alertRows(video.id)).toEqual([early.id]);

    // The subscriber handed the event again (a dispatch that failed after its handler), and the job run
    // again after it finished: the (user, event) key writes nothing twice.
    const subscriber = alertFollowersOfPicks();
    const event = await eventOf(video.id);
    await db.transaction((tx) => subscriber.handle(event, tx));
    await enqueue(db, pickAlertsJob, {
      eventId: event.id,
      videoId: video.id,
      capperId: capper.id,
      eventAt: (await eventTime(event.id)).toISOString(),
    });
    expect(await t.app.jobs.runUntilIdle(DEFAULT_LANE)).toBe(2);
    expect(await alertRows(video.id)).toEqual([early.id]);
  });

  it("says who posted what at which price, links to the video, and never carries the pick's selections", async () => {
    const response = await list(early.cookie);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<NotificationPage>();
    expect(page.unread).toBe(1);
    expect(page.nextBefore).toBeNull();
    expect(page.items).toEqual([
      {
        id: expect.any(Number),
        kind: 'pick.posted',
        title: 'New pick from Sharp Sam',
        body: 'Sharp Sam posted a new pick: Friday night special — $12.99',
        url: `/video/${video.id}`,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        read: false,
      },
    ]);
    expect(response.body).not.toContain(SECRET);
    expect(response.body).not.toContain(legs[0]!.side);
    expect(response.body).not.toContain(legs[0]!.away);

    const none = (await list(late.cookie)).json<NotificationPage>();
    expect(none).toEqual({ items: [], unread: 0, nextBefore: null });
  });

  it("marks read only the caller's own alerts", async () => {
    const mine = (await list(early.cookie)).json<NotificationPage>().items[0]!;
    // Another user naming it changes nothing.
    const foreign = await markRead(late.cookie, { ids: [mine.id] });
    expect(foreign.statusCode, foreign.body).toBe(200);
    expect(foreign.json<Unread>()).toEqual({ unread: 0 });
    expect((await list(early.cookie)).json<NotificationPage>().unread).toBe(1);
    const signedOut = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      payload: { all: true },
    });
    expect(signedOut.statusCode).toBe(401);

    const own = await markRead(early.cookie, { ids: [mine.id] });
    expect(own.json<Unread>()).toEqual({ unread: 0 });
    const page = (await list(early.cookie)).json<NotificationPage>();
    expect(page.items[0]).toMatchObject({ id: mine.id, read: true });
  });
});

describe('the list', () => {
  it('pages newest first with nextBefore, and marks all read at once', async () => {
    const reader = await registerUser(t.app, {}, nextIp());
    await follow(capper.username, reader.cookie);
    const first = (await postPick(capper, { title: 'First of three' })).video;
    const second = (await postPick(capper, { title: 'Second of three' })).video;
    const third = (await postPick(capper, { title: 'Third of three' })).video;
    await deliver();
    const one = (await list(reader.cookie, '?limit=2')).json<NotificationPage>();
    expect(one.items.map((item) => item.url)).toEqual([`/video/${third.id}`, `/video/${second.id}`]);
    expect(one.unread).toBe(3);
    expect(one.nextBefore).toBe(one.items[1]!.id);
    const two = (await list(reader.cookie, `?limit=2&before=${one.nextBefore}`)).json<NotificationPage>();
    expect(two.items.map((item) => item.url)).toEqual([`/video/${first.id}`]);
    expect(two.nextBefore).toBeNull();

    const all = await markRead(reader.cookie, { all: true });
    expect(all.json<Unread>()).toEqual({ unread: 0 });
    // Another follower's alerts of the same picks are still unread.
    expect((await list(early.cookie)).json<NotificationPage>().unread).toBe(3);
  });

  it('leaves out the alerts of a video deleted since, and of one whose pick is old news', async () => {
    const reader = await registerUser(t.app, {}, nextIp());
    await follow(capper.username, reader.cookie);
    const gone = (await postPick(capper, { title: 'Soon deleted' })).video;
    await deliver();
    expect((await list(reader.cookie)).json<NotificationPage>().unread).toBe(1);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/videos/${gone.id}`,
      headers: { cookie: capper.cookie },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await list(reader.cookie)).json<NotificationPage>()).toEqual({
      items: [],
      unread: 0,
      nextBefore: null,
    });

    // An event the subscriber first sees a day and more after it happened (a subscriber started afresh on
    // an outbox that keeps a week) alerts nobody.
    const stale = (await postPick(capper, { title: 'Old news' })).video;
    const event = await eventOf(stale.id);
    await db.execute(
      sql`update domain_events set created_at = now() - interval '2 days' where id = ${event.id}`,
    );
    await db.execute(
      sql`update follows set created_at = now() - interval '3 days' where follower_id = ${reader.id}`,
    );
    await deliver();
    expect(await alertRows(stale.id)).toEqual([]);
  });

  it('refuses bad input with a message, and a signed-out caller', async () => {
    const cases: [string, object | undefined, RegExp][] = [
      ['?limit=0', undefined, /Limit must be a whole number from 1 to 50/],
      ['?limit=51', undefined, /Limit must be a whole number from 1 to 50/],
      ['?before=abc', undefined, /Before must be a notification id/],
      ['', { ids: ['1', '2'] }, /Ids must be a list/],
      ['', { ids: [] }, /Ids must be a list/],
      ['', {}, /Send \{ "ids": \[...\] \} or \{ "all": true \}/],
      ['', { all: false }, /Send \{ "ids"/],
      ['', { ids: [1], all: true }, /Send \{ "ids"/],
    ];
    for (const [query, payload, message] of cases) {
      const response =
        payload === undefined ? await list(early.cookie, query) : await markRead(early.cookie, payload);
      expect(response.statusCode, `${query} ${JSON.stringify(payload)}`).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(message);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/notifications/stream' })).statusCode).toBe(401);
  });
});

describe('GET /api/notifications/stream', () => {
  it('sends the unread count on connecting and again when a followed capper posts', async () => {
    const watcher = await registerUser(t.app, {}, nextIp());
    await follow(capper.username, watcher.cookie);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const abort = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}/api/notifications/stream`, {
      headers: { cookie: watcher.cookie },
      signal: abort.signal,
    });
    try {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(t.app.alertStreams.size).toBe(1);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const nextEvent = async () => {
        for (;;) {
          const end = text.indexOf('\n\n');
          if (end >= 0) {
            const event = text.slice(0, end);
            text = text.slice(end + 2);
            if (!event.startsWith(':')) return event;
            continue;
          }
          const { value, done } = await reader.read();
          if (done) throw new Error('the stream ended');
          text += decoder.decode(value, { stream: true });
        }
      };
      expect(await nextEvent()).toBe('event: unread\ndata: {"unread":0}');
      await postPick(capper, { title: 'Live one' });
      await deliver();
      expect(await nextEvent()).toBe('event: unread\ndata: {"unread":1}');
      await markRead(watcher.cookie, { all: true });
      expect(await nextEvent()).toBe('event: unread\ndata: {"unread":0}');
    } finally {
      abort.abort();
    }
    // The client went away: its listener (and the re-check timer with it) is gone.
    await waitFor(
      'the closed stream to be let go',
      async () => (t.app.alertStreams.size === 0 ? true : undefined),
      t.logs,
    );
  });
});
