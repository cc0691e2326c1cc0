import { Mutex } from 'async-mutex';

/**
 * Runs tasks with the same key one after another, in this process (tasks with other keys run freely): an
 * async-mutex Mutex per key with work in flight. async-mutex has no keyed lock, so the map of keys is ours.
 * Payments serialise an intent's creation per buyer and video, and each webhook event's deliveries, with it.
 */
export class KeyedMutex {
  private readonly mutexes = new Map<string, Mutex>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    let mutex = this.mutexes.get(key);
    if (!mutex) this.mutexes.set(key, (mutex = new Mutex()));
    try {
      return await mutex.runExclusive(task);
    } finally {
      // The last one out forgets the key (a waiter holds the mutex as soon as it is released), so the map
      // holds only keys with work in flight.
      if (!mutex.isLocked() && this.mutexes.get(key) === mutex) this.mutexes.delete(key);
    }
  }
}
