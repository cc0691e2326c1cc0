import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred } from '#server/lib/testing/deferred.js';
import { CatalogCache } from './catalog-cache.js';
import type { VideoWithCapper } from './videos-repository.js';

const page = (name: string) => [{ name }] as unknown as VideoWithCapper[];

describe('CatalogCache', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }));
  afterEach(() => vi.useRealTimers());

  it('serves a page past half its lifetime while its refresh runs, then the fresh one', async () => {
    const cache = new CatalogCache();
    const first = cache.get('k', () => Promise.resolve(page('old')));
    expect(await first.value).toEqual(page('old'));

    vi.advanceTimersByTime(CatalogCache.TTL_MS / 2 + 1);
    const refresh = deferred<VideoWithCapper[]>();
    const load = vi.fn(() => refresh.promise);
    // Due for a refresh: still the old rows, and one refresh started however many ask.
    expect(await cache.get('k', load).value).toEqual(page('old'));
    expect(await cache.get('k', load).value).toEqual(page('old'));
    expect(load).toHaveBeenCalledTimes(1);

    refresh.resolve(page('new'));
    await refresh.promise;
    expect(await cache.get('k', load).value).toEqual(page('new'));
  });

  it('never serves rows whose query was sent TTL_MS ago (other instances change the catalog)', async () => {
    const cache = new CatalogCache();
    await cache.get('k', () => Promise.resolve(page('old'))).value;
    vi.advanceTimersByTime(CatalogCache.TTL_MS);
    expect(await cache.get('k', () => Promise.resolve(page('new'))).value).toEqual(page('new'));
  });

  it('answers from the refresh under way once the served entry is too old, waiting for it', async () => {
    const cache = new CatalogCache();
    await cache.get('k', () => Promise.resolve(page('old'))).value;
    vi.advanceTimersByTime(CatalogCache.TTL_MS / 2);
    const refresh = deferred<VideoWithCapper[]>();
    expect(await cache.get('k', () => refresh.promise).value).toEqual(page('old'));
    vi.advanceTimersByTime(CatalogCache.TTL_MS / 2);
    const another = vi.fn(() => Promise.resolve(page('another')));
    const waiting = cache.get('k', another).value;
    expect(another).not.toHaveBeenCalled();
    refresh.resolve(page('new'));
    expect(await waiting).toEqual(page('new'));
  });

  it('with no other writer (the embedded database), serves a settled page up to 2 × TTL while its refresh waits', async () => {
    const cache = new CatalogCache({ soleWriter: true });
    await cache.get('k', () => Promise.resolve(page('old'))).value;
    vi.advanceTimersByTime(CatalogCache.TTL_MS / 2);
    const refresh = deferred<VideoWithCapper[]>();
    expect(await cache.get('k', () => refresh.promise).value).toEqual(page('old'));
    // The refresh queues behind a long write: the old rows still answer at once past the TTL...
    vi.advanceTimersByTime(CatalogCache.TTL_MS);
    const another = vi.fn(() => Promise.resolve(page('another')));
    expect(await cache.get('k', another).value).toEqual(page('old'));
    expect(another).not.toHaveBeenCalled();
    // ...but not at twice the TTL: then the refresh under way answers.
    vi.advanceTimersByTime(CatalogCache.TTL_MS / 2);
    const waiting = cache.get('k', another).value;
    refresh.resolve(page('new'));
    expect(await waiting).toEqual(page('new'));
  });

  it('never serves stale rows after clear(), and retries a failed refresh', async () => {
    const cache = new CatalogCache();
    await cache.get('k', () => Promise.resolve(page('old'))).value;
    vi.advanceTimersByTime(CatalogCache.TTL_MS / 2 + 1);
    const failing = deferred<VideoWithCapper[]>();
    expect(await cache.get('k', () => failing.promise).value).toEqual(page('old'));
    failing.reject(new Error('database busy'));
    await failing.promise.catch(() => {});
    const retry = vi.fn(() => Promise.resolve(page('retried')));
    expect(await cache.get('k', retry).value).toEqual(page('old'));
    expect(retry).toHaveBeenCalledTimes(1);

    cache.clear();
    expect(await cache.get('k', () => Promise.resolve(page('after change'))).value).toEqual(
      page('after change'),
    );
  });

  it('runs searches in a lane of half the cores, and answers 503 past the queue it holds', async () => {
    const cache = new CatalogCache();
    const gates = Array.from({ length: CatalogCache.SEARCH_LANES + CatalogCache.SEARCH_QUEUE_MAX }, () =>
      deferred<VideoWithCapper[]>(),
    );
    let running = 0;
    let most = 0;
    const searches = gates.map((gate) =>
      cache.search(async () => {
        running += 1;
        most = Math.max(most, running);
        try {
          return await gate.promise;
        } finally {
          running -= 1;
        }
      }),
    );
    await Promise.resolve();
    await expect(cache.search(() => Promise.resolve(page('late')))).rejects.toMatchObject({
      statusCode: 503,
    });
    for (const gate of gates) gate.resolve(page('done'));
    await Promise.all(searches);
    expect(most).toBe(CatalogCache.SEARCH_LANES);
    expect(await cache.search(() => Promise.resolve(page('after')))).toEqual(page('after'));
  });
});
