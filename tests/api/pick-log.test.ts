// The public pick log (../shared/spec/pick-log.md): every post, revision, grade and removal is one
// entry, appended in the action's own transaction; signed checkpoints, entries and proofs verify with the
// common formats, as an outside verifier would check them.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from '#server/db/drizzle.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBase64 } from '#common/pick-log/base64.js';
import { parseEntry, type LogEntry, type PickEntry } from '#common/pick-log/entry.js';
import { decodeEntryBundle, tileRefPath, tileWidthIn } from '#common/pick-log/tiles.js';
import { leafHash, TreeBuilder, verifyConsistency, verifyInclusion } from '#common/pick-log/merkle.js';
import {
  parseCheckpoint,
  parseVerifierKey,
  verifySignedNote,
  webCryptoEd25519Verify,
  type Checkpoint,
} from '#common/pick-log/note.js';
import type { PickView } from '#common/schemas/pick-views.js';
import type { Video } from '#common/schemas/videos.js';
import { rowsOf } from '#server/db/rows.js';
import { setAdmin } from '#server/features/auth/users-repository.js';
import { loadLogKey, LogKeyError } from '#server/features/pick-log/log-key.js';
import { correctEvent, settleEvent } from '#server/features/picks/grading-service.js';
import { backfillPickLog } from '#server/features/picks/log-backfill.js';
import { appendToLog } from '#server/features/pick-log/log-service.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, VALID_FIELDS } from '../setup/upload-requests.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

let t: TestApp;
let capper: { cookie: string; id: number; username: string };
let admin: { cookie: string; id: number };
let ip = 0;
const nextIp = () => `10.15.0.${++ip}`;
const HOUR = 3600_000;
const inHours = (hours: number) =>
  new Date(Date.now() + hours * HOUR).toISOString().replace(/\.\d{3}Z$/, 'Z');
const LATER = new Date(Date.now() + 1000 * HOUR);
let game = 0;

function newGame(overrides: Record<string, unknown> = {}) {
  game += 1;
  return {
    league: 'NBA',
    home: `Home ${game}`,
    away: `Away ${game}`,
    startsAt: inHours(24),
    market: 'moneyline',
    side: `Home ${game}`,
    line: null,
    odds: -110,
    units: 1,
    ...overrides,
  };
}

async function postPickVideo(legs: unknown[], cookie = capper.cookie): Promise<Video> {
  const response = await postVideo(t.app, cookie, {
    ...VALID_FIELDS,
    isExternalVideo: 'true',
    externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    duration: '',
    legs: JSON.stringify(legs),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Video>();
}

const get = (url: string) => t.app.inject({ method: 'GET', url });
const pickOf = async (videoId: number) => (await get(`/api/picks/${videoId}`)).json<PickView>();

async function logSize(): Promise<number> {
  const [row] = rowsOf<{ size: string | number }>(
    await t.database.db.execute(sql`select size from log_state`),
  );
  return Number(row!.size);
}

async function eventIdOf(videoId: number): Promise<number> {
  const rows = rowsOf<{ event_id: number }>(
    await t.database.db.execute(
      sql`select event_id from pick_legs where video_id = ${videoId} order by position`,
    ),
  );
  return rows[0]!.event_id;
}

/** The latest checkpoint, verified with the log's key, once it covers at least `size` entries. */
async function checkpointAtLeast(size: number): Promise<{ checkpoint: Checkpoint; note: string }> {
  const key = await parseVerifierKey((await get('/api/log/key')).body.trim(), sha256);
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await get('/api/log/checkpoint');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const text = await verifySignedNote(response.body, key, webCryptoEd25519Verify);
    const checkpoint = parseCheckpoint(text);
    expect(checkpoint.origin).toBe(key.name);
    if (checkpoint.size >= size) return { checkpoint, note: response.body };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no checkpoint of ${size} entries was signed`);
}

async function entries(start: number, end: number): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  while (start < end) {
    const response = await get(`/api/log/entries?start=${start}&end=${end}`);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<{ entries: string[] }>().entries.map(fromBase64);
    expect(page.length).toBeGreaterThan(0);
    out.push(...page);
    start += page.length;
  }
  return out;
}

/** The entry at `index`, once a checkpoint covers it (within a second of its append). */
async function entryAt(index: number): Promise<LogEntry> {
  await checkpointAtLeast(index + 1);
  const [bytes] = await entries(index, index + 1);
  return parseEntry(bytes!);
}

beforeAll(async () => {
  t = await createTestApp();
  capper = await registerUser(t.app, {}, nextIp());
  admin = await registerUser(t.app, {}, nextIp());
  await setAdmin(t.database.db, admin.id, true);
});

afterAll(async () => {
  await t?.close();
});

describe('the log of a pick', () => {
  it('appends posted, revised, graded and removed entries, each listed on the pick', async () => {
    const before = await logSize();
    const video = await postPickVideo([newGame()]);
    let pick = await pickOf(video.id);
    expect(pick.log).toEqual([
      { index: before, type: 'posted', at: pick.postedAt, title: 'Sealed — version 1' },
    ]);
    expect(await entryAt(before)).toEqual({
      v: 2,
      type: 'posted',
      videoId: video.id,
      capper: capper.username,
      commitment: pick.commitment,
      at: pick.postedAt,
      version: 1,
    });

    const revised = await t.app.inject({
      method: 'PATCH',
      url: `/api/videos/${video.id}`,
      payload: { legs: [newGame({ odds: 120 })] },
      headers: { cookie: capper.cookie },
    });
    expect(revised.statusCode, revised.body).toBe(200);
    pick = await pickOf(video.id);
    expect(pick.log.map((ref) => ref.type)).toEqual(['posted', 'revised']);
    expect(await entryAt(pick.log[1]!.index)).toMatchObject({
      type: 'revised',
      commitment: pick.versions[1]!.commitment,
      version: 2,
    });

    const by = { adminId: admin.id, source: 'admin' };
    const eventId = await eventIdOf(video.id);
    await settleEvent(t.database.db, eventId, { status: 'final', homeScore: 100, awayScore: 90 }, by, LATER);
    await t.app.pickLog.flush(); // called directly, not through a request that waits for the numbers
    pick = await pickOf(video.id);
    // The game's outcome is logged first, and the pick's page lists it: the grade names it by its hash.
    expect(pick.log.map((ref) => ref.type)).toEqual(['posted', 'revised', 'settled', 'graded']);
    await checkpointAtLeast(pick.log[3]!.index + 1); // numbered by the flush; signed a moment later
    const settledBytes = (await entries(pick.log[2]!.index, pick.log[2]!.index + 1))[0]!;
    expect(parseEntry(settledBytes)).toMatchObject({
      v: 2,
      type: 'settled',
      event: eventId,
      game: null,
      status: 'final',
      homeScore: 100,
      awayScore: 90,
      source: 'admin',
    });
    const settledHash = createHash('sha256').update(settledBytes).digest('hex');
    const sealed = (await t.app.inject({ method: 'GET', url: `/api/picks/${video.id}/reveal` })).json()
      .sealed;
    expect(await entryAt(pick.log[3]!.index)).toMatchObject({
      v: 2,
      type: 'graded',
      commitment: pick.commitment,
      result: 'win',
      unitsWon: 1.2,
      unitsRisked: 1,
      sealed,
      legs: [{ result: 'win', basis: 'score', settled: settledHash }],
    });
    // A correction that changes the result is a new graded entry; one that changes nothing adds none.
    await correctEvent(
      t.database.db,
      eventId,
      { status: 'final', homeScore: 80, awayScore: 90 },
      admin,
      'typo',
      LATER,
    );
    await correctEvent(
      t.database.db,
      eventId,
      { status: 'final', homeScore: 81, awayScore: 90 },
      admin,
      'typo',
      LATER,
    );
    await t.app.pickLog.flush();
    pick = await pickOf(video.id);
    expect(pick.log.map((ref) => ref.type)).toEqual([
      'posted',
      'revised',
      'settled',
      'graded',
      'corrected',
      'graded',
      'corrected',
    ]);
    await checkpointAtLeast(pick.log[6]!.index + 1);
    const correctedBytes = (await entries(pick.log[4]!.index, pick.log[4]!.index + 1))[0]!;
    expect(parseEntry(correctedBytes)).toMatchObject({
      type: 'corrected',
      homeScore: 80,
      awayScore: 90,
      before: { status: 'final', homeScore: 100, awayScore: 90 },
      reason: 'typo',
      settled: settledHash,
    });
    expect(await entryAt(pick.log[5]!.index)).toMatchObject({
      result: 'loss',
      unitsWon: -1,
      unitsRisked: 1,
      legs: [
        {
          result: 'loss',
          basis: 'score',
          settled: createHash('sha256').update(correctedBytes).digest('hex'),
        },
      ],
    });

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/videos/${video.id}`,
      headers: { cookie: admin.cookie },
    });
    expect(deleted.statusCode).toBe(200);
    pick = await pickOf(video.id);
    expect(pick.log.at(-1)!.type).toBe('removed');
    expect(await entryAt(pick.log.at(-1)!.index)).toMatchObject({ type: 'removed', reason: 'moderation' });
  });

  it("logs the removal of an untouched pick that goes with its video, and of a deleted capper's picks", async () => {
    const video = await postPickVideo([newGame()]);
    const posted = (await pickOf(video.id)).log[0]!.index;
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/videos/${video.id}`,
      headers: { cookie: capper.cookie },
    });
    expect(deleted.statusCode).toBe(200);
    expect(await entryAt(posted + 1)).toMatchObject({ type: 'removed', videoId: video.id, reason: 'capper' });

    const leaving = await registerUser(t.app, {}, nextIp());
    const first = await postPickVideo([newGame()], leaving.cookie);
    const second = await postPickVideo([newGame()], leaving.cookie);
    const sizeBefore = await logSize();
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${leaving.id}`,
      headers: { cookie: admin.cookie },
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await logSize()).toBe(sizeBefore + 2);
    await checkpointAtLeast(sizeBefore + 2);
    const removed = [await entryAt(sizeBefore), await entryAt(sizeBefore + 1)];
    expect(removed.map((e) => [e.type, (e as PickEntry).videoId, (e as PickEntry).reason])).toEqual([
      ['removed', first.id, 'moderation'],
      ['removed', second.id, 'moderation'],
    ]);
  });

  it('appends nothing for an action that is refused', async () => {
    const video = await postPickVideo([newGame()]);
    await t.database.db.execute(
      sql`update picks set locks_at = now() - interval '1 minute' where video_id = ${video.id}`,
    );
    const size = await logSize();
    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/api/videos/${video.id}`,
      payload: { legs: [newGame()] },
      headers: { cookie: capper.cookie },
    });
    expect(refused.statusCode).toBe(409);
    const bad = await postVideo(t.app, capper.cookie, {
      ...VALID_FIELDS,
      isExternalVideo: 'true',
      externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      legs: JSON.stringify([newGame({ odds: 50 })]),
    });
    expect(bad.statusCode).toBe(400);
    expect(await logSize()).toBe(size);
    const [waiting] = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::int as n from log_pending`),
    );
    expect(waiting!.n).toBe(0);
  });
});

describe('the tree, its checkpoints and proofs', () => {
  it('numbers 50 concurrent posts without gaps, and its signed root is the root of the entries served', async () => {
    const size = await logSize();
    const cappers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => registerUser(t.app, {}, `10.15.1.${i + 1}`)),
    );
    const videos = await Promise.all(
      Array.from({ length: 50 }, (_, i) => postPickVideo([newGame()], cappers[i % 5]!.cookie)),
    );
    expect(await logSize()).toBe(size + 50);
    const { checkpoint } = await checkpointAtLeast(size + 50);
    const all = await entries(0, checkpoint.size);
    const tree = new TreeBuilder(sha256);
    for (const bytes of all) await tree.push(await leafHash(bytes, sha256));
    expect(Buffer.from(await tree.root()).toString('hex')).toBe(
      Buffer.from(checkpoint.rootHash).toString('hex'),
    );
    const posted = all.slice(size, size + 50).map((bytes) => parseEntry(bytes) as PickEntry);
    expect(posted.every((entry) => entry.type === 'posted')).toBe(true);
    expect(new Set(posted.map((entry) => entry.videoId))).toEqual(new Set(videos.map((video) => video.id)));
    const indices = rowsOf<{ idx: string | number }>(
      await t.database.db.execute(sql`select idx from log_entries order by idx`),
    ).map((row) => Number(row.idx));
    expect(indices).toEqual(Array.from({ length: indices.length }, (_, i) => i));
  });

  it('answers a grading of more legs than a numbering batch at its commit; its entries are numbered after, in full', async () => {
    // 1,001 one-leg picks of one capper on one game that started an hour ago, written as the bench writes them.
    const legs = 1_001;
    const db = t.database.db;
    const [event] = rowsOf<{ id: number }>(
      await db.execute(sql`insert into events (league, home, away, starts_at)
        values ('NBA', 'Batch Home', 'Batch Away', now() - interval '1 hour') returning id`),
    );
    await db.execute(sql`insert into picks (video_id, user_id, league, parlay, leg_count, version, commitment,
        sealed, posted_at, first_posted_at, locks_at, title)
      select 700000 + g, ${capper.id}, 'NBA', false, 1, 1, encode(sha256(convert_to(g::text, 'UTF8')), 'hex'),
        '{}', now() - interval '2 hours', now() - interval '2 hours', now() - interval '1 hour', 'Batch pick ' || g
      from generate_series(1, ${legs}) g`);
    await db.execute(sql`insert into pick_legs (video_id, position, event_id, market, side, line, odds, units)
      select 700000 + g, 0, ${event!.id}, 'moneyline', 'Batch Home', null, -110, 1
      from generate_series(1, ${legs}) g`);
    await t.app.pickLog.flush();
    const size = await logSize();

    // On PostgreSQL the numbering is held back (the log's size row locked elsewhere) while the grading runs:
    // its answer must not wait for it. (The embedded database has one connection to hold: there the test
    // checks only the entries.)
    let holder: pg.Client | undefined;
    if (t.databaseUrl) {
      holder = new pg.Client({ connectionString: t.databaseUrl });
      await holder.connect();
      await holder.query('begin');
      await holder.query('select size from log_state where id = 1 for update');
    }
    try {
      const graded = await t.app.inject({
        method: 'POST',
        url: `/api/admin/events/${event!.id}/result`,
        headers: { cookie: admin.cookie },
        payload: { status: 'final', homeScore: 101, awayScore: 99 },
      });
      expect(graded.statusCode, graded.body).toBe(200);
      expect(graded.json()).toMatchObject({ legs, picks: legs });
      if (holder) expect(await logSize()).toBe(size);
    } finally {
      await holder?.query('rollback');
      await holder?.end();
    }

    await t.app.pickLog.flush();
    // The game's outcome, then each pick's grade resting on it.
    expect(await logSize()).toBe(size + 1 + legs);
    const { checkpoint } = await checkpointAtLeast(size + 1 + legs);
    expect(await entryAt(size)).toMatchObject({ type: 'settled', homeScore: 101, awayScore: 99 });
    const logged = (await entries(size + 1, size + 1 + legs)).map((bytes) => parseEntry(bytes) as PickEntry);
    expect(logged.every((entry) => entry.type === 'graded' && entry.result === 'win')).toBe(true);
    expect(new Set(logged.map((entry) => entry.videoId)).size).toBe(legs);
    const tree = new TreeBuilder(sha256);
    for (const bytes of await entries(0, checkpoint.size)) await tree.push(await leafHash(bytes, sha256));
    expect(Buffer.from(await tree.root()).equals(Buffer.from(checkpoint.rootHash))).toBe(true);

    // These picks were never posted through the app (no versions): gone again, for the backfill's test below.
    await db.execute(sql`delete from pick_legs where event_id = ${event!.id}`);
    await db.execute(sql`delete from picks where video_id between 700001 and ${700000 + legs}`);
    await db.execute(sql`delete from events where id = ${event!.id}`);
  });

  it('proves every entry is included, and that a later tree extends an earlier one', async () => {
    const { checkpoint: first } = await checkpointAtLeast(1);
    await postPickVideo([newGame()]);
    await postPickVideo([newGame()]);
    const { checkpoint: second } = await checkpointAtLeast(first.size + 2);
    const all = await entries(0, second.size);
    for (let index = 0; index < second.size; index++) {
      const response = await get(`/api/log/proof/inclusion?index=${index}&treeSize=${second.size}`);
      expect(response.statusCode, response.body).toBe(200);
      const proof = response.json<{ index: number; treeSize: number; hashes: string[] }>();
      expect(proof.index).toBe(index);
      const leaf = await leafHash(all[index]!, sha256);
      expect(
        await verifyInclusion(
          leaf,
          index,
          second.size,
          proof.hashes.map(fromBase64),
          second.rootHash,
          sha256,
        ),
      ).toBe(true);
    }
    const consistency = await get(`/api/log/proof/consistency?first=${first.size}&second=${second.size}`);
    expect(consistency.statusCode, consistency.body).toBe(200);
    const hashes = consistency.json<{ hashes: string[] }>().hashes.map(fromBase64);
    expect(
      await verifyConsistency(first.size, second.size, first.rootHash, second.rootHash, hashes, sha256),
    ).toBe(true);
    expect(
      await verifyConsistency(first.size, second.size, second.rootHash, second.rootHash, hashes, sha256),
    ).toBe(false);
  });

  it('answers 400 with a clear message for a size past the checkpoint, an index outside the tree, or a bad number', async () => {
    const { checkpoint } = await checkpointAtLeast(1);
    const n = checkpoint.size;
    const cases: [string, RegExp][] = [
      [`/api/log/proof/inclusion?index=0&treeSize=${n + 1000}`, /past the latest checkpoint/],
      [`/api/log/proof/inclusion?index=${n}&treeSize=${n}`, /outside a tree/],
      [`/api/log/proof/consistency?first=1&second=${n + 1000}`, /past the latest checkpoint/],
      [`/api/log/proof/consistency?first=${n}&second=1`, /must not be larger/],
      [`/api/log/entries?start=0&end=${n + 1000}`, /past the latest checkpoint/],
      [`/api/log/entries?start=1&end=1`, /start must be less than end/],
      ['/api/log/entries?start=0x1&end=2', /start must be a whole number/],
      ['/api/log/proof/inclusion?index=1e3&treeSize=2', /index must be a whole number/],
      ['/api/log/proof/inclusion?index=-1&treeSize=2', /index must be a whole number/],
      ['/api/log/proof/inclusion?treeSize=2', /index must be a whole number/],
    ];
    for (const [url, message] of cases) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json<{ message: string }>().message, url).toMatch(message);
    }
  });

  it('proves entries past 512 entries alike, whether the upper nodes are read or remembered', async () => {
    // Entries of a capper of their own straight into the log: levels 8 and 9 of the tree exist after this.
    await t.database.db.transaction((tx) =>
      appendToLog(
        tx,
        Array.from({ length: 700 }, (_, i) => ({
          type: 'posted' as const,
          videoId: 900_000 + i,
          capper: 'bulk_capper',
          commitment: createHash('sha256').update(`bulk ${i}`).digest('hex'),
          at: new Date(),
          version: 1,
        })),
      ),
    );
    await t.app.pickLog.flush();
    const { checkpoint } = await checkpointAtLeast(await logSize());
    const all = await entries(0, checkpoint.size);
    for (const round of [1, 2]) {
      for (const index of [0, 255, 256, 511, 512, 640, checkpoint.size - 1]) {
        const response = await get(`/api/log/proof/inclusion?index=${index}&treeSize=${checkpoint.size}`);
        expect(response.statusCode, `round ${round}`).toBe(200);
        const hashes = response.json<{ hashes: string[] }>().hashes.map(fromBase64);
        const leaf = await leafHash(all[index]!, sha256);
        expect(
          await verifyInclusion(leaf, index, checkpoint.size, hashes, checkpoint.rootHash, sha256),
          `index ${index}, round ${round}`,
        ).toBe(true);
      }
      const consistency = await get(`/api/log/proof/consistency?first=300&second=${checkpoint.size}`);
      const hashes = consistency.json<{ hashes: string[] }>().hashes.map(fromBase64);
      const first = new TreeBuilder(sha256);
      for (const bytes of all.slice(0, 300)) await first.push(await leafHash(bytes, sha256));
      expect(
        await verifyConsistency(
          300,
          checkpoint.size,
          await first.root(),
          checkpoint.rootHash,
          hashes,
          sha256,
        ),
        `round ${round}`,
      ).toBe(true);
    }
  });

  it('serves at most 1,000 entries at once', async () => {
    const { checkpoint } = await checkpointAtLeast(1);
    const response = await get(`/api/log/entries?start=0&end=${checkpoint.size}`);
    expect(response.json<{ entries: string[] }>().entries.length).toBe(Math.min(checkpoint.size, 1000));
  });
});

describe('the tree as C2SP tlog-tiles resources', () => {
  it('serves level-0 and level-1 tiles and entry bundles that rebuild the signed root', async () => {
    await t.database.db.transaction((tx) =>
      appendToLog(
        tx,
        Array.from({ length: 600 }, (_, i) => ({
          type: 'posted' as const,
          videoId: 950_000 + i,
          capper: 'tiles_capper',
          commitment: createHash('sha256').update(`tiles ${i}`).digest('hex'),
          at: new Date(),
          version: 1,
        })),
      ),
    );
    await t.app.pickLog.flush();
    const { checkpoint } = await checkpointAtLeast(await logSize());
    const size = checkpoint.size;
    expect(size).toBeGreaterThan(512);
    const all = await entries(0, size);
    const leaves = await Promise.all(all.map((bytes) => leafHash(bytes, sha256)));
    const refs = (level: number) => {
      const out: { index: number; width: number }[] = [];
      for (let index = 0; tileWidthIn(size, level, index) > 0; index++)
        out.push({ index, width: tileWidthIn(size, level, index) });
      return out;
    };

    // Level 0: the leaf hashes, 256 a tile, the last one partial; the bundles: the entries themselves.
    const fromTiles: Uint8Array[] = [];
    const fromBundles: Uint8Array[] = [];
    for (const ref of refs(0)) {
      const tile = await get(`/api/log/tile/0/${tileRefPath(ref)}`);
      expect(tile.statusCode, tile.body).toBe(200);
      expect(tile.headers['content-type']).toBe('application/octet-stream');
      expect(tile.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(tile.rawPayload.byteLength).toBe(32 * ref.width);
      for (let i = 0; i < ref.width; i++) fromTiles.push(tile.rawPayload.subarray(32 * i, 32 * (i + 1)));
      const bundle = await get(`/api/log/tile/entries/${tileRefPath(ref)}`);
      expect(bundle.statusCode, bundle.body).toBe(200);
      expect(bundle.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      fromBundles.push(...decodeEntryBundle(bundle.rawPayload));
    }
    expect(fromTiles.map((hash) => Buffer.from(hash).toString('hex'))).toEqual(
      leaves.map((hash) => Buffer.from(hash).toString('hex')),
    );
    expect(fromBundles.map((bytes) => Buffer.from(bytes).toString('hex'))).toEqual(
      all.map((bytes) => Buffer.from(bytes).toString('hex')),
    );
    const tree = new TreeBuilder(sha256);
    for (const leaf of fromTiles) await tree.push(leaf);
    expect(Buffer.from(await tree.root()).toString('hex')).toBe(
      Buffer.from(checkpoint.rootHash).toString('hex'),
    );

    // Level 1: each hash the root of 256 entries (a partial tile below 65,536 entries).
    const [upper] = refs(1);
    expect(upper).toEqual({ index: 0, width: Math.floor(size / 256) });
    const level1 = await get(`/api/log/tile/1/${tileRefPath(upper!)}`);
    expect(level1.statusCode, level1.body).toBe(200);
    for (let i = 0; i < upper!.width; i++) {
      const subtree = new TreeBuilder(sha256);
      for (const leaf of leaves.slice(256 * i, 256 * (i + 1))) await subtree.push(leaf);
      expect(Buffer.from(level1.rawPayload.subarray(32 * i, 32 * (i + 1))).toString('hex')).toBe(
        Buffer.from(await subtree.root()).toString('hex'),
      );
    }

    // A partial tile of a tile the tree holds in full is its first hashes.
    const partial = await get('/api/log/tile/0/000.p/10');
    expect(partial.rawPayload).toEqual(Buffer.concat(fromTiles.slice(0, 10).map((h) => Buffer.from(h))));
    // Asked for in gzip, a bundle comes compressed.
    const zipped = await t.app.inject({
      method: 'GET',
      url: '/api/log/tile/entries/000',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(decodeEntryBundle(gunzipSync(zipped.rawPayload))).toHaveLength(256);
    expect(zipped.rawPayload.byteLength).toBeLessThan(gunzipSync(zipped.rawPayload).byteLength / 2);
  });

  it('answers 404 for a tile the signed tree does not hold, or a path tlog-tiles does not write', async () => {
    const { checkpoint } = await checkpointAtLeast(1);
    const lastIndex = Math.floor(checkpoint.size / 256);
    const lastWidth = checkpoint.size % 256;
    for (const url of [
      `/api/log/tile/0/${tileRefPath({ index: lastIndex + 1, width: 256 })}`,
      `/api/log/tile/0/${tileRefPath({ index: lastIndex, width: 256 })}`,
      `/api/log/tile/0/${tileRefPath({ index: lastIndex, width: lastWidth + 1 })}`,
      `/api/log/tile/entries/${tileRefPath({ index: lastIndex + 1, width: 1 })}`,
      '/api/log/tile/3/000.p/1',
      '/api/log/tile/64/000',
      '/api/log/tile/01/000',
      '/api/log/tile/0/x000/000',
      '/api/log/tile/0/0',
      '/api/log/tile/0/000.p/256',
      '/api/log/tile/0/000.p/007',
      '/api/log/tile/entries/abc',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json<{ message: string }>().message, url).toMatch(/No such tile/);
    }
  });
});

describe("the log's key", () => {
  it('refuses to start with a lost or different key unless told to re-key, and records the change', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pick-log-key-'));
    try {
      const settings = { origin: undefined, defaultOrigin: 'other.example/pick-log', acceptNewKey: false };
      const served = (await get('/api/log/key')).body.trim();
      const lost = path.join(dir, 'lost.pem');
      await expect(loadLogKey(t.database.db, { ...settings, keyFile: lost })).rejects.toThrow(LogKeyError);
      await expect(loadLogKey(t.database.db, { ...settings, keyFile: lost })).rejects.toThrow(/missing/);
      // The same file as the server's loads and names the same key.
      const kept = await loadLogKey(t.database.db, {
        ...settings,
        keyFile: path.join(t.config.dataDir, 'pick-log-key.pem'),
      });
      expect(kept.verifierKey).toBe(served);
      await expect(
        loadLogKey(t.database.db, { ...settings, origin: 'renamed.example/pick-log', keyFile: lost }),
      ).rejects.toThrow(LogKeyError);
      const rekeyed = await loadLogKey(t.database.db, { ...settings, keyFile: lost, acceptNewKey: true });
      expect(rekeyed.verifierKey).not.toBe(served);
      expect(rekeyed.origin).toBe(kept.origin);
      const audit = rowsOf<{ action: string }>(
        await t.database.db.execute(sql`select action from audit_log where action = 'log.rekey'`),
      );
      expect(audit).toHaveLength(1);
      // Put the server's key back for the rest of the file.
      await loadLogKey(t.database.db, {
        ...settings,
        keyFile: path.join(t.config.dataDir, 'pick-log-key.pem'),
        acceptNewKey: true,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('picks sealed before the log existed', () => {
  it('are logged once, in the order things happened, when the log is empty', async () => {
    // Stand in for a database from before migration 0011: the picks are there, the log is empty.
    await t.database.db.execute(sql`truncate log_entries, log_nodes, log_checkpoints`);
    await t.database.db.execute(sql`update log_state set size = 0`);
    const counts = rowsOf<{ versions: number; graded: number; removed: number }>(
      await t.database.db.execute(sql`
        select (select count(*)::int from pick_versions) as versions,
          (select count(*)::int from picks where result is not null) as graded,
          (select count(*)::int from picks where removed is not null) as removed`),
    )[0]!;
    const appended = await backfillPickLog(t.database.db);
    expect(appended).toBe(counts.versions + counts.graded + counts.removed);
    expect(await backfillPickLog(t.database.db)).toBe(0); // waiting for its numbers: not logged twice
    await t.app.pickLog.flush();
    expect(await logSize()).toBe(appended);
    expect(await backfillPickLog(t.database.db)).toBe(0);
    const logged = rowsOf<{ type: string; video_id: number; at: string | Date }>(
      await t.database.db.execute(sql`select type, video_id, at from log_entries order by idx`),
    );
    const times = logged.map((row) => new Date(row.at).getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const firstOfEach = new Map<number, string>();
    for (const row of logged) if (!firstOfEach.has(row.video_id)) firstOfEach.set(row.video_id, row.type);
    expect(new Set(firstOfEach.values())).toEqual(new Set(['posted']));
  });
});
