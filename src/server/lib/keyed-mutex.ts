/**
 * Runs tasks with the same key one after another, in this process (tasks with other keys run freely).
 * Creating a payment intent is serialised per buyer and video with it, so concurrent checkouts of one
 * buyer agree on one intent; the database's unique index guards across server instances (issue 11).
 * Deliveries of one webhook event wait for each other too, so the event is handled once (issue 13).
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(() => task());
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      // The last one out forgets the key, so the map holds only keys with work in flight.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
