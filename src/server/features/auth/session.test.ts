import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Db } from '#server/db/client.js';
import { SESSION_COOKIE, SessionStore } from './session.js';
import type { UserRow } from './users-repository.js';

const user = (id: number, isAdmin = false) => ({ id, username: `user${id}`, isAdmin }) as UserRow;

function request(cookie: string) {
  return {
    cookies: { [SESSION_COOKIE]: cookie },
    unsignCookie: (raw: string) => ({ valid: true, renew: false, value: `token-${raw}` }),
    user: null,
    sessionId: null,
  } as unknown as FastifyRequest;
}

/** A lookup that answers when told to, counting its calls. */
function heldLookup(answer: (call: number) => UserRow | undefined) {
  const releases: (() => void)[] = [];
  let calls = 0;
  const lookup = async () => {
    const call = ++calls;
    await new Promise<void>((resolve) => releases.push(resolve));
    return answer(call);
  };
  return {
    lookup,
    calls: () => calls,
    releaseAll: () => releases.splice(0).forEach((release) => release()),
  };
}

describe('SessionStore.load', () => {
  it('sends one lookup for concurrent requests carrying the same cookie, and caches its answer', async () => {
    const held = heldLookup(() => user(7));
    const store = new SessionStore({} as Db, held.lookup);
    const requests = Array.from({ length: 20 }, () => request('a'));
    const loads = requests.map((r) => store.load(r));
    const other = request('b');
    const otherLoad = store.load(other);
    await Promise.resolve();
    expect(held.calls()).toBe(2); // one for cookie a, one for b
    held.releaseAll();
    await Promise.all([...loads, otherLoad]);
    expect(requests.map((r) => r.user?.id)).toEqual(Array(20).fill(7));
    expect(requests.every((r) => r.sessionId === requests[0]!.sessionId)).toBe(true);
    await store.load(request('a'));
    expect(held.calls()).toBe(2);
  });

  it('leaves every waiting request signed out when the session is not live', async () => {
    const held = heldLookup(() => undefined);
    const store = new SessionStore({} as Db, held.lookup);
    const requests = [request('gone'), request('gone')];
    const loads = requests.map((r) => store.load(r));
    await Promise.resolve();
    held.releaseAll();
    await Promise.all(loads);
    expect(requests.map((r) => r.user)).toEqual([null, null]);
    expect(held.calls()).toBe(1);
  });

  it('does not keep an answer begun before the user changed: the next request looks again', async () => {
    const held = heldLookup((call) => user(7, call > 1));
    const store = new SessionStore({} as Db, held.lookup);
    const first = request('a');
    const load = store.load(first);
    await Promise.resolve();
    store.invalidateUser(7); // e.g. promoted to admin while the first lookup ran
    held.releaseAll();
    await load;
    expect(first.user?.isAdmin).toBe(false);
    const second = request('a');
    const again = store.load(second);
    await Promise.resolve();
    held.releaseAll();
    await again;
    expect(held.calls()).toBe(2);
    expect(second.user?.isAdmin).toBe(true);
  });

  it('does not keep a session looked up while it was being ended', async () => {
    const held = heldLookup(() => user(7));
    let finishDelete = () => {};
    const db = {
      delete: () => ({ where: () => new Promise<void>((resolve) => (finishDelete = resolve)) }),
    } as unknown as Db;
    const store = new SessionStore(db, held.lookup);
    const signedIn = request('a');
    const first = store.load(signedIn);
    await Promise.resolve();
    held.releaseAll();
    await first;
    const ending = store.end(signedIn); // logout: the row is being deleted
    const meanwhile = store.load(request('a'));
    await Promise.resolve();
    held.releaseAll(); // this lookup still found the row
    await meanwhile;
    finishDelete();
    await ending;
    const after = request('a');
    const load = store.load(after);
    await Promise.resolve();
    expect(held.calls()).toBe(3); // asked again, not served from the cache
    held.releaseAll();
    await load;
  });
});
