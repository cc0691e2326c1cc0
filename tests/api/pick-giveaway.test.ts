// Selling only what is still secret (docs/decisions/028): every way a title, description or legs reach the
// server refuses words that give the sealed pick away (400, the words named), and a pick with legs is filed
// under its legs' category, whatever category was sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadResult } from '#common/schemas/uploads.js';
import type { Video } from '#common/schemas/videos.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, tusCreate, tusPatch, VALID_FIELDS } from '../setup/upload-requests.js';

let t: TestApp;
let capper: { cookie: string; id: number; username: string };
let ip = 0;
const nextIp = () => `10.35.0.${++ip}`;

const inHours = (hours: number) =>
  new Date(Date.now() + hours * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
let game = 0;

/** A self-reported leg on a game of its own (no market in this app): 'New York Knicks' at 'Boston Celtics' style names. */
function leg(overrides: Record<string, unknown> = {}) {
  game += 1;
  return {
    league: 'NBA',
    home: `Boston Celtics${game}`,
    away: `New York Knicks${game}`,
    startsAt: inHours(24 + game),
    market: 'moneyline',
    side: `New York Knicks${game}`,
    line: null,
    odds: 120,
    units: 1,
    ...overrides,
  };
}

const external = (fields: Record<string, string>) => ({
  ...VALID_FIELDS,
  isExternalVideo: 'true',
  externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  duration: '',
  ...fields,
});

const post = (legs: unknown[], fields: Record<string, string> = {}) =>
  postVideo(t.app, capper.cookie, external({ legs: JSON.stringify(legs), ...fields }));

async function postOk(legs: unknown[], fields: Record<string, string> = {}) {
  const response = await post(legs, fields);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Video>();
}

const patch = (videoId: number, payload: Record<string, unknown>) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/videos/${videoId}`,
    payload,
    headers: { cookie: capper.cookie },
  });

// As its owner: a video still being processed is not shown to others yet.
const videoOf = async (id: number) =>
  (
    await t.app.inject({ method: 'GET', url: `/api/videos/${id}`, headers: { cookie: capper.cookie } })
  ).json<Video>();

const message = (field: string, words: string) =>
  `The ${field} gives the pick away: ${words}. Describe the pick without its side, line or market.`;

beforeAll(async () => {
  t = await createTestApp();
  capper = await registerUser(t.app, {}, nextIp());
});

afterAll(async () => {
  await t?.close();
});

describe('posting (multipart POST /api/videos)', () => {
  it('refuses a title that names a side with its market, saying which words', async () => {
    const legs = [leg({ side: 'New York Knicks1', home: 'Boston Celtics', away: 'New York Knicks1' })];
    const response = await post(legs, { title: 'Knicks1 ML tonight' });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({ message: message('title', '"Knicks1 ML"') });
  });

  it("refuses a description with a total's side and line, and a parlay title with each leg's words", async () => {
    const total = leg({ market: 'total', side: 'over', line: 211.5, home: 'Kansas', away: 'Duke' });
    const described = await post([total], { description: 'Hammer the Over 211.5 in this one' });
    expect(described.statusCode, described.body).toBe(400);
    expect(described.json()).toEqual({ message: message('description', '"Hammer the Over 211.5"') });

    const ml = leg({ home: 'Boston Celtics', away: 'New York Knicks', side: 'New York Knicks' });
    const parlay = await post([{ ...total, startsAt: inHours(30) }, ml], {
      title: 'Parlays: 2-leg parlay, Kansas-Duke Over 211.5 + Knicks ML',
      parlay: 'true',
    });
    expect(parlay.statusCode, parlay.body).toBe(400);
    expect(parlay.json()).toEqual({ message: message('title', '"Kansas-Duke Over 211.5", "Knicks ML"') });
  });

  it('takes the matchup and betting talk without a side, and a video without legs whatever it says', async () => {
    await postOk([leg({ home: 'Boston Celtics', away: 'New York Knicks', side: 'New York Knicks' })], {
      title: 'Knicks vs Celtics preview: my best bet tonight',
      description: 'Big Sunday in Boston. The moneyline has moved all week.',
    });
    await postOk([], { title: 'Knicks ML, no legs sealed' });
  });
});

describe('tus (POST /api/uploads)', () => {
  it('refuses the upload at creation, before any byte, when its metadata gives the pick away', async () => {
    const legs = [
      leg({
        market: 'spread',
        line: -3.5,
        home: 'Denver Nuggets',
        away: 'Los Angeles Lakers',
        side: 'Los Angeles Lakers',
      }),
    ];
    const response = await tusCreate(t.app, capper.cookie, 20, {
      ...VALID_FIELDS,
      title: 'Lakers -3.5 is the play',
      legs: JSON.stringify(legs),
      filename: 'pick.mov',
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ message: message('title', '"Lakers -3.5"') });
    expect(response.headers.location).toBeUndefined();
  });

  it("files a finished upload under its legs' league, not the category sent", async () => {
    const created = await tusCreate(t.app, capper.cookie, 20, {
      ...VALID_FIELDS,
      category: 'General',
      legs: JSON.stringify([
        leg({ league: 'NHL', home: 'Boston Bruins', away: 'Detroit Red Wings', side: 'Boston Bruins' }),
      ]),
      filename: 'pick.mov',
    });
    expect(created.statusCode, created.body).toBe(201);
    // A QuickTime header is all the upload's check reads; the processing that follows is not this test's.
    const head = Buffer.alloc(20);
    head.writeUInt32BE(20, 0);
    head.write('ftypqt  ', 4, 'latin1');
    const done = await tusPatch(t.app, capper.cookie, created.headers.location as string, 0, head);
    expect(done.statusCode, done.body).toBe(200);
    const { videoId } = JSON.parse(done.body) as UploadResult;
    expect((await videoOf(videoId)).category).toBe('NHL');
  });
});

describe('editing (PATCH /api/videos/{id})', () => {
  it('refuses a new title or description that gives the pick away, and keeps the video as it was', async () => {
    const video = await postOk([leg({ home: 'Miami Heat', away: 'Chicago Bulls', side: 'Chicago Bulls' })], {
      title: 'Bulls at Heat',
    });
    const retitled = await patch(video.id, { title: 'Bulls moneyline' });
    expect(retitled.statusCode, retitled.body).toBe(400);
    expect(retitled.json()).toEqual({ message: message('title', '"Bulls moneyline"') });
    const described = await patch(video.id, { description: 'Chicago to win outright' });
    expect(described.statusCode, described.body).toBe(400);
    expect(described.json()).toEqual({ message: message('description', '"Chicago to win"') });
    expect((await videoOf(video.id)).title).toBe('Bulls at Heat');
    expect((await patch(video.id, { title: 'Bulls at Heat, Friday' })).statusCode).toBe(200);
  });

  it('refuses new legs that the kept title gives away', async () => {
    const video = await postOk([leg({ home: 'Utah Jazz', away: 'Orlando Magic', side: 'Orlando Magic' })], {
      title: 'Under 220.5 is the number in Utah',
    });
    const revised = await patch(video.id, {
      legs: [leg({ market: 'total', side: 'under', line: 220.5, home: 'Utah Jazz', away: 'Orlando Magic' })],
    });
    expect(revised.statusCode, revised.body).toBe(400);
    expect(revised.json()).toEqual({ message: message('title', '"Under 220.5"') });
  });

  it('does not look at a title that is not changing: a price edit goes through', async () => {
    const video = await postOk([], { title: 'Magic ML, before the legs' });
    // Sealing legs while keeping a title that names them is refused; a price change alone is not a giveaway.
    expect((await patch(video.id, { price: 30, title: 'Magic ML, before the legs' })).statusCode).toBe(200);
  });
});

describe('category follows the legs', () => {
  it('is the league of one-league legs, Parlays across leagues, whatever was sent; General without legs', async () => {
    const nba = await postOk([leg()], { category: 'Golf' });
    expect(nba.category).toBe('NBA');
    const mixed = await postOk(
      [
        leg(),
        leg({ league: 'NHL', home: 'Boston Bruins', away: 'Detroit Red Wings', side: 'Boston Bruins' }),
      ],
      {
        category: 'General',
      },
    );
    expect(mixed.category).toBe('Parlays');
    const unverified = await postOk([], { category: 'General' });
    expect(unverified.category).toBe('General');
  });

  it('is derived again on an edit and on a revision of the legs', async () => {
    const video = await postOk([leg()], { category: 'General' });
    const edited = await patch(video.id, { category: 'Tennis' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Video>().category).toBe('NBA');
    const revised = await patch(video.id, {
      legs: [leg({ league: 'NFL', home: 'Buffalo Bills', away: 'Miami Dolphins', side: 'Buffalo Bills' })],
    });
    expect(revised.statusCode, revised.body).toBe(200);
    expect(revised.json<Video>().category).toBe('NFL');
  });

  it('lists an NBA pick under the NBA filter', async () => {
    const video = await postOk([leg()], { title: 'Filed by its legs zebrafinch', category: 'General' });
    const listed = await t.app.inject({ method: 'GET', url: '/api/videos?q=zebrafinch&category=NBA' });
    expect(listed.statusCode).toBe(200);
    expect(listed.json<Video[]>().map((v) => v.id)).toEqual([video.id]);
  });
});
