import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred } from './testing/deferred.js';
import { TtlMap } from './ttl-map.js';

const TTL = 10_000;

async function filled(map: TtlMap<string>, keys: string[]) {
  for (const key of keys) await map.get(key, () => Promise.resolve(`${key} old`)).value;
}

describe('TtlMap', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }));
  afterEach(() => vi.useRealTimers());

  it('runs at most maxRefreshes background refreshes at once; the others start once one is done', async () => {
    const map = new TtlMap<string>({ ttlMs: TTL, maxEntries: 100, maxRefreshes: 1 });
    await filled(map, ['a', 'b', 'c']);
    vi.advanceTimersByTime(TTL / 2);

    const refreshA = deferred<string>();
    const loads = vi.fn((key: string) => (key === 'a' ? refreshA.promise : Promise.resolve(`${key} new`)));
    // A walk over every key past half its life: one refresh starts, the others are served as they are.
    for (const key of ['a', 'b', 'c']) expect(await map.get(key, () => loads(key)).value).toBe(`${key} old`);
    expect(loads.mock.calls.map(([key]) => key)).toEqual(['a']);

    refreshA.resolve('a new');
    await refreshA.promise;
    await Promise.resolve();
    expect(await map.get('a', () => loads('a')).value).toBe('a new');
    expect(await map.get('b', () => loads('b')).value).toBe('b old');
    expect(loads.mock.calls.map(([key]) => key)).toEqual(['a', 'b']);
  });

  it('a failed refresh frees its place', async () => {
    const map = new TtlMap<string>({ ttlMs: TTL, maxEntries: 100, maxRefreshes: 1 });
    await filled(map, ['a', 'b']);
    vi.advanceTimersByTime(TTL / 2);
    const failing = deferred<string>();
    expect(await map.get('a', () => failing.promise).value).toBe('a old');
    failing.reject(new Error('connection lost'));
    await failing.promise.catch(() => undefined);
    await Promise.resolve();
    const load = vi.fn(() => Promise.resolve('b new'));
    expect(await map.get('b', load).value).toBe('b old');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('an entry whose refresh never got a place is not served at its TTL: a new load answers', async () => {
    const map = new TtlMap<string>({ ttlMs: TTL, maxEntries: 100, maxRefreshes: 1 });
    await filled(map, ['a', 'b']);
    vi.advanceTimersByTime(TTL / 2);
    const slow = deferred<string>();
    await map.get('a', () => slow.promise).value; // takes the one place
    expect(await map.get('b', () => Promise.resolve('unused')).value).toBe('b old');
    vi.advanceTimersByTime(TTL / 2);
    expect(await map.get('b', () => Promise.resolve('b new')).value).toBe('b new');
  });

  it('without maxRefreshes, every key due refreshes at once (the catalog)', async () => {
    const map = new TtlMap<string>({ ttlMs: TTL, maxEntries: 100 });
    await filled(map, ['a', 'b', 'c']);
    vi.advanceTimersByTime(TTL / 2);
    const load = vi.fn(() => new Promise<string>(() => undefined));
    for (const key of ['a', 'b', 'c']) await map.get(key, load).value;
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('past maxEntries drops the least recently used entry, not the others', async () => {
    const map = new TtlMap<string>({ ttlMs: TTL, maxEntries: 2 });
    await filled(map, ['a', 'b']);
    await map.get('a', () => Promise.resolve('unused')).value; // a used last: b is the least recent
    await filled(map, ['c']);
    const load = vi.fn((key: string) => Promise.resolve(`${key} again`));
    expect(await map.get('a', () => load('a')).value).toBe('a old');
    expect(await map.get('b', () => load('b')).value).toBe('b again');
    expect(load.mock.calls.map(([key]) => key)).toEqual(['b']);
  });
});
