import { describe, expect, it } from 'vitest';
import { deferred } from './testing/deferred.js';
import { KeyedMutex } from './keyed-mutex.js';

describe('KeyedMutex', () => {
  it('runs tasks of one key one after another, other keys at once, and goes on after a failure', async () => {
    const locks = new KeyedMutex();
    const first = deferred<string>();
    const order: string[] = [];
    const a1 = locks.run('a', async () => {
      order.push('a1 start');
      const value = await first.promise;
      order.push('a1 end');
      return value;
    });
    const a2 = locks.run('a', async () => {
      order.push('a2');
      throw new Error('declined');
    });
    const a3 = locks.run('a', async () => {
      order.push('a3');
      return 'three';
    });
    expect(await locks.run('b', async () => 'other key')).toBe('other key');
    expect(order).toEqual(['a1 start']);
    first.resolve('one');
    expect(await a1).toBe('one');
    await expect(a2).rejects.toThrow('declined');
    expect(await a3).toBe('three');
    expect(order).toEqual(['a1 start', 'a1 end', 'a2', 'a3']);
    expect((locks as unknown as { mutexes: Map<string, unknown> }).mutexes.size).toBe(0);
  });
});
