// Finding things: cappers by username and display name, the catalog's status filter and the
// capper-record order, and "Popular picks" that only ever recommend what can still be bought.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from '#server/db/drizzle.js';
import type { CapperMatch } from '#common/schemas/capper-search.js';
import type { Video } from '#common/schemas/videos.js';
import { picks, users } from '#server/db/schema.js';
import { keepRecord } from '#server/features/cappers/index.js';
import type { VideoRow } from '#server/features/videos/videos-repository.js';
import { createPurchase, createVideo } from '../setup/fixtures.js';
import { createTestApp, registerUser, uniqueUsername, type TestApp } from '../setup/test-app.js';

type User = { cookie: string; id: number; username: string };
let t: TestApp;
let ip = 0;
const nextIp = () => `10.35.0.${++ip}`;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

async function user(username = uniqueUsername('fnd')): Promise<User> {
  return registerUser(t.app, { username }, nextIp());
}

/** A sealed pick on the video, written as the picks feature would (through the record's keepRecord). */
async function sealPick(
  video: VideoRow,
  state: { startsInHours: number; result?: 'win' | 'loss'; unitsWon?: number },
): Promise<void> {
  const now = new Date();
  const graded = state.result !== undefined;
  const db = t.database.db;
  await db.transaction((tx) =>
    keepRecord(tx, [video.id], () =>
      tx.insert(picks).values({
        videoId: video.id,
        userId: video.userId,
        league: 'NBA',
        legCount: 1,
        commitment: `c${video.id}`.padEnd(64, '0'),
        sealed: '{}',
        postedAt: now,
        firstPostedAt: now,
        locksAt: new Date(now.getTime() + state.startsInHours * HOUR),
        title: video.title,
        selfReported: false,
        result: state.result ?? null,
        unitsWon: graded ? (state.unitsWon ?? (state.result === 'win' ? 0.91 : -1)) : null,
        unitsRisked: graded ? 1 : null,
        gradedAt: graded ? now : null,
        betsWon: state.result === 'win' ? 1 : 0,
        betsLost: state.result === 'loss' ? 1 : 0,
      }),
    ),
  );
  t.app.catalog.clear();
}

async function list(query: string, cookie?: string): Promise<Video[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/videos${query}`,
    headers: cookie ? { cookie } : {},
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Video[]>();
}

async function findCappers(q: string): Promise<CapperMatch[]> {
  const response = await t.app.inject({ method: 'GET', url: `/api/cappers?q=${encodeURIComponent(q)}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CapperMatch[]>();
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/cappers?q= finds cappers by name', () => {
  let sharp: User;
  let underscore: User;
  let lookalike: User;
  let bettor: User;

  beforeAll(async () => {
    const tag = `${process.pid}`;
    sharp = await user(`SharpShooter${tag}`);
    underscore = await user(`ab_cd${tag}`);
    lookalike = await user(`abxcd${tag}`);
    bettor = await user(`SharpBettor${tag}`); // never posted: no storefront to find
    for (const capper of [sharp, underscore, lookalike]) await createVideo(t, capper.id);
    await t.database.db
      .update(users)
      .set({ displayName: `Mr 100% Locks ${tag}` })
      .where(eq(users.id, underscore.id));
  });

  it('by username, any case, prefix or within; only cappers with a ready video', async () => {
    const names = (await findCappers('sharpshoot')).map((match) => match.username);
    expect(names).toContain(sharp.username);
    expect((await findCappers('SHOOTER')).map((match) => match.username)).toContain(sharp.username);
    expect((await findCappers('sharp')).map((match) => match.username)).not.toContain(bettor.username);
  });

  it('by display name, with the record (null before any graded verified pick)', async () => {
    const [match] = await findCappers(`100% locks ${process.pid}`);
    expect(match).toMatchObject({
      username: underscore.username,
      displayName: `Mr 100% Locks ${process.pid}`,
      record: null,
    });
  });

  it('treats % and _ as literal characters, not wildcards', async () => {
    const names = (await findCappers(`b_cd${process.pid}`)).map((match) => match.username);
    expect(names).toEqual([underscore.username]);
    expect(names).not.toContain(lookalike.username);
    expect((await findCappers(`0% l`)).map((match) => match.username)).toEqual([underscore.username]);
    const everyone = (await findCappers('%')).map((match) => match.username);
    expect(everyone).not.toContain(sharp.username);
  });

  it('answers at most ten, an exact username first', async () => {
    const tag = `crowd${process.pid}`;
    for (let i = 0; i < 11; i += 1) await createVideo(t, (await user(`${tag}x${i}`)).id);
    const exact = await user(tag);
    await createVideo(t, exact.id);
    const matches = await findCappers(tag);
    expect(matches).toHaveLength(10);
    expect(matches[0]!.username).toBe(exact.username);
  });

  it('refuses an empty search with a message, and is in the OpenAPI document', async () => {
    const empty = await t.app.inject({ method: 'GET', url: '/api/cappers?q=%20' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ message: string }>().message).toMatch(/name to search/);
    const document = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const paths = document.json<{ paths: Record<string, { get?: unknown }> }>().paths;
    expect(paths['/api/cappers']?.get).toBeDefined();
  });
});

describe('GET /api/videos: status, verified and the orders', () => {
  const category = 'Horse Racing';
  let capper: User;
  let winner: User;
  const made: Record<string, VideoRow> = {};
  const ids = (videos: Video[]) => videos.map((video) => video.id);
  const titled = (name: string) => `Finding ${name} ${process.pid}`;

  beforeAll(async () => {
    capper = await user();
    winner = await user();
    const at = (days: number) => new Date(Date.now() - days * DAY);
    made.unverified = await createVideo(t, capper.id, {
      title: titled('unverified'),
      category,
      priceCents: 500,
      createdAt: at(1),
    });
    made.open = await createVideo(t, capper.id, {
      title: titled('open'),
      category,
      priceCents: 2500,
      createdAt: at(2),
    });
    made.started = await createVideo(t, capper.id, {
      title: titled('started'),
      category,
      priceCents: 1500,
      createdAt: at(3),
    });
    made.graded = await createVideo(t, capper.id, {
      title: titled('graded'),
      category,
      priceCents: 999,
      createdAt: at(4),
    });
    made.winnerOpen = await createVideo(t, winner.id, {
      title: titled('winnerOpen'),
      category,
      priceCents: 3000,
      createdAt: at(5),
    });
    made.winnerGraded = await createVideo(t, winner.id, {
      title: titled('winnerGraded'),
      category,
      priceCents: 700,
      createdAt: at(6),
    });
    await sealPick(made.open, { startsInHours: 5 });
    await sealPick(made.started, { startsInHours: -1 });
    await sealPick(made.graded, { startsInHours: -30, result: 'loss' });
    await sealPick(made.winnerOpen, { startsInHours: 8 });
    await sealPick(made.winnerGraded, { startsInHours: -30, result: 'win', unitsWon: 5 });
  });

  it('status=open: on sale only (unverified, or a pick not started); never started or graded', async () => {
    const open = ids(await list(`?category=${encodeURIComponent(category)}&status=open`));
    expect(open).toEqual([made.unverified!.id, made.open!.id, made.winnerOpen!.id]);
    const verified = await list(`?category=${encodeURIComponent(category)}&status=open&verified=true`);
    expect(ids(verified)).toEqual([made.open!.id, made.winnerOpen!.id]);
    expect(verified.every((video) => video.pick?.status === 'open')).toBe(true);
  });

  it('status=graded: picks with a result only', async () => {
    const graded = await list(`?category=${encodeURIComponent(category)}&status=graded`);
    expect(ids(graded)).toEqual([made.graded!.id, made.winnerGraded!.id]);
    expect(graded.map((video) => video.pick?.status)).toEqual(['graded', 'graded']);
  });

  it('sorts by price both ways, with the filter', async () => {
    expect(ids(await list(`?category=${encodeURIComponent(category)}&status=open&sort=price_asc`))).toEqual([
      made.unverified!.id,
      made.open!.id,
      made.winnerOpen!.id,
    ]);
    expect(ids(await list(`?category=${encodeURIComponent(category)}&sort=price_desc`))).toEqual(
      [made.winnerOpen, made.open, made.started, made.graded, made.winnerGraded, made.unverified].map(
        (video) => video!.id,
      ),
    );
  });

  it("sort=record: the best verified record's picks first, then the rest newest first", async () => {
    // winner: +5u; capper: -1u. Both have a record; unranked cappers' videos would come after.
    expect(ids(await list(`?category=${encodeURIComponent(category)}&sort=record`))).toEqual(
      [made.winnerOpen, made.winnerGraded, made.unverified, made.open, made.started, made.graded].map(
        (video) => video!.id,
      ),
    );
    const newcomer = await user();
    const fresh = await createVideo(t, newcomer.id, { category, createdAt: new Date() });
    const page = ids(await list(`?category=${encodeURIComponent(category)}&sort=record&status=open`));
    expect(page).toEqual([made.winnerOpen!.id, made.unverified!.id, made.open!.id, fresh.id]);
    expect(
      ids(await list(`?category=${encodeURIComponent(category)}&sort=record&status=open&limit=2&offset=2`)),
    ).toEqual([made.open!.id, fresh.id]);
    expect(
      ids(
        await list(
          `?category=${encodeURIComponent(category)}&sort=record&q=${encodeURIComponent(fresh.title)}`,
        ),
      ),
    ).toEqual([fresh.id]);
  });

  it('a search honours the status filter', async () => {
    const open = ids(await list(`?q=${encodeURIComponent(made.started!.title)}&status=open`));
    expect(open).toEqual([]);
    const any = ids(await list(`?q=${encodeURIComponent(made.started!.title)}`));
    expect(any).toEqual([made.started!.id]);
  });

  it('refuses an unknown status or order with a message', async () => {
    for (const query of ['?status=closed', '?sort=best', '?verified=yes']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/videos${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ message: string }>().message.length).toBeGreaterThan(0);
    }
  });
});

describe('GET /api/videos/featured: Popular picks are recent and on sale', () => {
  it('never a started, graded or old pick; signed in, own and bought ones say so', async () => {
    const capper = await user();
    const buyer = await user();
    const recent = (views: number) => ({ views: 1_000_000 + views, createdAt: new Date(Date.now() - DAY) });
    const onSale = await createVideo(t, capper.id, recent(1));
    const openPick = await createVideo(t, capper.id, recent(2));
    const started = await createVideo(t, capper.id, recent(3));
    const graded = await createVideo(t, capper.id, recent(4));
    const old = await createVideo(t, capper.id, {
      views: 2_000_000,
      createdAt: new Date(Date.now() - 60 * DAY),
    });
    const bought = await createVideo(t, capper.id, recent(0));
    const own = await createVideo(t, buyer.id, recent(5));
    await sealPick(openPick, { startsInHours: 3 });
    await sealPick(started, { startsInHours: -1 });
    await sealPick(graded, { startsInHours: -30, result: 'win' });
    await createPurchase(t, buyer.id, bought);

    const anonymous = (await list('/featured')).map((video) => video.id);
    expect(anonymous.slice(0, 4)).toEqual([own.id, openPick.id, onSale.id, bought.id]);
    expect(anonymous).not.toContain(started.id);
    expect(anonymous).not.toContain(graded.id);
    expect(anonymous).not.toContain(old.id);

    const personal = await list('/featured', buyer.cookie);
    expect(personal.find((video) => video.id === own.id)?.isOwner).toBe(true);
    expect(personal.find((video) => video.id === bought.id)?.isPurchased).toBe(true);
    expect(personal.find((video) => video.id === onSale.id)).toMatchObject({
      isOwner: false,
      isPurchased: false,
    });
  });
});
