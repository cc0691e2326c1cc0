// The domain events' mechanism (src/server/events): after-commit subscribers run only after a commit,
// durable ones get each event once per dispatch round, in order, resuming from their stored progress.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/client.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { dispatchOutbox, emit, eventBus, pruneOutbox, type StoredEvent } from '#server/events/index.js';
import { createTestApp, type TestApp } from '../setup/test-app.js';

let t: TestApp;
let db: Db;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
});
afterAll(async () => {
  await t.close();
});

describe('after-commit subscribers', () => {
  it('run once the transaction commits, before db.transaction returns', async () => {
    const seen: number[] = [];
    const stop = eventBus(db).afterCommit('video.deleted', (event) => {
      seen.push(event.videoId);
    });
    try {
      await db.transaction(async (tx) => {
        await emit(tx, { type: 'video.deleted', videoId: 901 });
        expect(seen).toEqual([]);
      });
      expect(seen).toEqual([901]);
    } finally {
      stop();
    }
  });

  it('never run when the transaction rolls back, nor for a rolled-back savepoint', async () => {
    const seen: number[] = [];
    const stop = eventBus(db).afterCommit('video.deleted', (event) => {
      seen.push(event.videoId);
    });
    try {
      await expect(
        db.transaction(async (tx) => {
          await emit(tx, { type: 'video.deleted', videoId: 902 });
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      await db.transaction(async (tx) => {
        await emit(tx, { type: 'video.deleted', videoId: 903 });
        await tx
          .transaction(async (savepoint) => {
            await emit(savepoint, { type: 'video.deleted', videoId: 904 });
            throw new Error('savepoint refused');
          })
          .catch(() => undefined);
        await tx.transaction(async (savepoint) => {
          await emit(savepoint, { type: 'video.deleted', videoId: 905 });
        });
      });
      expect(seen).toEqual([903, 905]);
      const stored = rowsOf<{ id: string }>(
        await db.execute(
          sql`select payload->>'videoId' as id from domain_events where type = 'video.deleted' order by id`,
        ),
      );
      expect(stored.map((row) => Number(row.id))).toEqual([901, 903, 905]);
    } finally {
      stop();
    }
  });

  it('a failing subscriber is reported and neither undoes the change nor stops the others', async () => {
    const seen: string[] = [];
    const bus = eventBus(db);
    const report = bus.reportError;
    const errors: unknown[] = [];
    bus.reportError = (error) => errors.push(error);
    const stopFailing = bus.afterCommit('profile.changed', () => {
      throw new Error('cache down');
    });
    const stopOther = bus.afterCommit('profile.changed', (event) => {
      seen.push(`user ${event.userId}`);
    });
    try {
      await db.transaction((tx) => emit(tx, { type: 'profile.changed', userId: 7 }));
      expect(seen).toEqual(['user 7']);
      expect(errors).toHaveLength(1);
    } finally {
      stopFailing();
      stopOther();
      bus.reportError = report;
    }
  });
});

describe('durable subscribers', () => {
  it('get each event in order, resume from their stored progress, and retry a failed event', async () => {
    const handled: number[] = [];
    let failOn: number | null = null;
    const subscribe = () =>
      eventBus(db).durable({
        name: 'test-settlements',
        // A type no durable subscriber of the app takes: the dispatch counts are this subscriber's alone.
        types: ['price.changed'],
        handle: async (event: StoredEvent<'price.changed'>, tx) => {
          // Its write commits with its progress: the check below sees it.
          await tx.execute(sql`select ${event.videoId}::int`);
          if (event.videoId === failOn) throw new Error('provider down');
          handled.push(event.videoId);
        },
      });
    const errors: unknown[] = [];
    eventBus(db).reportError = (error) => errors.push(error);
    let unsubscribe = subscribe();
    for (const videoId of [1, 2, 3])
      await db.transaction((tx) =>
        emit(tx, { type: 'price.changed', videoId, fromCents: 100, toCents: 200 }),
      );
    // Another type in between is not this subscriber's.
    await emit(db, { type: 'video.changed', videoId: 1 });
    expect(await dispatchOutbox(db)).toBe(3);
    expect(handled).toEqual([1, 2, 3]);
    expect(await dispatchOutbox(db)).toBe(0);

    // A restart: the subscriber is registered afresh and goes on after the last event it handled.
    unsubscribe();
    await emit(db, { type: 'price.changed', videoId: 4, fromCents: 100, toCents: 200 });
    await emit(db, { type: 'price.changed', videoId: 5, fromCents: 100, toCents: 200 });
    await emit(db, { type: 'price.changed', videoId: 6, fromCents: 100, toCents: 200 });
    unsubscribe = subscribe();
    failOn = 5;
    expect(await dispatchOutbox(db)).toBe(1);
    expect(handled).toEqual([1, 2, 3, 4]);
    expect(errors).toHaveLength(1);
    failOn = null;
    expect(await dispatchOutbox(db)).toBe(2);
    expect(handled).toEqual([1, 2, 3, 4, 5, 6]);
    unsubscribe();
  });

  it('wake the dispatcher after a commit that emitted one of their events, and only then', async () => {
    let wakes = 0;
    const stopWaking = eventBus(db).onDurableEvent(() => void (wakes += 1));
    const unsubscribe = eventBus(db).durable({
      name: 'test-waker',
      types: ['leg.graded'],
      handle: async () => {},
    });
    try {
      await db.transaction(async (tx) => {
        await emit(tx, { type: 'leg.graded', legId: 1, videoId: 1 });
        expect(wakes).toBe(0);
      });
      expect(wakes).toBe(1);
      await emit(db, { type: 'video.changed', videoId: 1 });
      await expect(
        db.transaction(async (tx) => {
          await emit(tx, { type: 'leg.graded', legId: 2, videoId: 1 });
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(wakes).toBe(1);
      await dispatchOutbox(db);
    } finally {
      unsubscribe();
      stopWaking();
    }
  });

  it('never passes an event whose transaction commits after a later one', async () => {
    const handled: number[] = [];
    const unsubscribe = eventBus(db).durable({
      name: 'test-late-commit',
      // A type no durable subscriber of the app takes: the dispatch counts are this subscriber's alone.
      types: ['video.deleted'],
      handle: async (event: StoredEvent<'video.deleted'>) => {
        handled.push(event.videoId);
      },
    });
    try {
      await dispatchOutbox(db);
      handled.length = 0;
      // PGlite runs one transaction at a time: only PostgreSQL can hold one open while another commits.
      if (t.database.kind === 'postgres') {
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let emitted!: () => void;
        const early = new Promise<void>((resolve) => (emitted = resolve));
        const slow = db.transaction(async (tx) => {
          await emit(tx, { type: 'video.deleted', videoId: 1 });
          emitted();
          await held;
        });
        await early;
        await emit(db, { type: 'video.deleted', videoId: 2 });
        // The later event has committed, but the slow transaction began before it and still runs.
        expect(await dispatchOutbox(db)).toBe(0);
        release();
        await slow;
        expect(await dispatchOutbox(db)).toBe(2);
        expect(handled).toEqual([1, 2]);
      } else {
        await emit(db, { type: 'video.deleted', videoId: 1 });
        await emit(db, { type: 'video.deleted', videoId: 2 });
        expect(await dispatchOutbox(db)).toBe(2);
        expect(handled).toEqual([1, 2]);
      }
    } finally {
      unsubscribe();
    }
  });

  it('moves a caught-up subscriber past the events of other types, so a rare type holds back no pruning', async () => {
    const seen: number[] = [];
    const unsubscribe = eventBus(db).durable({
      name: 'test-rare',
      types: ['user.deleted'],
      handle: async (event: StoredEvent<'user.deleted'>) => {
        seen.push(event.userId);
      },
    });
    try {
      await emit(db, { type: 'video.changed', videoId: 71 });
      await emit(db, { type: 'video.changed', videoId: 72 });
      expect(await dispatchOutbox(db)).toBe(0);
      const position = async () =>
        rowsOf<{ at: boolean }>(
          await db.execute(sql`
            select (s.tx_id, s.event_id) >= (e.tx_id, e.id) as at
            from event_subscriptions s, (select tx_id, id from domain_events order by tx_id desc, id desc limit 1) e
            where s.name = 'test-rare'`),
        )[0]!.at;
      expect(await position()).toBe(true);
      // Its own type after them is still handed over.
      await emit(db, { type: 'user.deleted', userId: 73 });
      expect(await dispatchOutbox(db)).toBe(1);
      expect(seen).toEqual([73]);
    } finally {
      unsubscribe();
    }
  });

  it('prunes only old events every subscriber has passed', async () => {
    await db.execute(sql`update domain_events set created_at = now() - interval '30 days'`);
    // test-late-commit has passed every video.deleted event, test-settlements every price.changed one, but each
    // has not passed the other's: nothing after the lower of the two positions goes.
    const count = async () =>
      rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from domain_events`))[0]!.n;
    const before = await count();
    const pruned = await pruneOutbox(db);
    expect(pruned).toBeGreaterThan(0);
    expect(await count()).toBe(before - pruned);
    // What is left starts at the lowest subscriber's position: nothing it has not handled went.
    const [lowest] = rowsOf<{ tx: string; id: string }>(
      await db.execute(
        sql`select tx_id::text as tx, event_id::text as id from event_subscriptions order by tx_id, event_id limit 1`,
      ),
    );
    const passed = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from domain_events where (tx_id, id) <= (${lowest!.tx}::xid8, ${lowest!.id}::bigint)`,
      ),
    );
    expect(passed[0]!.n).toBe(0);
    expect(await count()).toBeGreaterThan(0);
  });
});
