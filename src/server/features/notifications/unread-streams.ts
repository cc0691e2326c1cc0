// The open alert streams of this process (GET /api/notifications/stream), by user: each gets the user's
// unread count whenever it may have changed. Told by this process's fan-out jobs and read marks; a slow
// re-check of every connected user catches what another process did (jobs on a worker, another web
// instance's read marks). One count query per signal, whatever the number of connections.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client.js';
import { countUnread, followersAmong } from './notifications-repository.js';

/** How often every connected user's count is read again, for changes made by other processes. */
export const UNREAD_RECHECK_MS = 30_000;

interface Listener {
  send: (unread: number) => void;
  /** Ends the stream (the app is closing). */
  end: () => void;
  /** The count this stream was last sent; nothing is sent again while it holds. */
  last: number | null;
}

export class UnreadStreams {
  private readonly byUser = new Map<number, Set<Listener>>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly recheckMs = UNREAD_RECHECK_MS,
  ) {}

  /** Adds a stream and sends it the current count; the returned function removes it. */
  async open(userId: number, send: (unread: number) => void, end: () => void): Promise<() => void> {
    const listener: Listener = { send, end, last: null };
    let set = this.byUser.get(userId);
    if (!set) this.byUser.set(userId, (set = new Set()));
    set.add(listener);
    this.timer ??= setInterval(() => void this.refresh([...this.byUser.keys()]), this.recheckMs).unref();
    const close = () => {
      set.delete(listener);
      if (set.size === 0 && this.byUser.get(userId) === set) this.byUser.delete(userId);
      if (this.byUser.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
    try {
      const counts = await countUnread(this.db, [userId]);
      this.deliver(listener, counts.get(userId) ?? 0);
    } catch (error) {
      close();
      throw error;
    }
    return close;
  }

  /** The user's count may have changed (a read mark). */
  userChanged(userId: number): Promise<void> {
    return this.refresh([userId]);
  }

  /** Alerts were written for these users (graded picks): their counts may have changed. */
  usersChanged(userIds: readonly number[]): Promise<void> {
    return this.refresh([...userIds]);
  }

  /** A fan-out for this capper committed: their connected followers' counts may have changed. */
  async capperPosted(capperId: number): Promise<void> {
    const connected = [...this.byUser.keys()];
    if (connected.length === 0) return;
    await this.refresh(await followersAmong(this.db, capperId, connected));
  }

  /** How many streams are open (tests check that a closed one is gone). */
  get size(): number {
    let n = 0;
    for (const set of this.byUser.values()) n += set.size;
    return n;
  }

  /** Ends every open stream: a server closing waits for no connection held open by one. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const listeners = [...this.byUser.values()].flatMap((set) => [...set]);
    this.byUser.clear();
    for (const listener of listeners) listener.end();
  }

  private async refresh(userIds: number[]): Promise<void> {
    const present = userIds.filter((id) => this.byUser.has(id));
    if (present.length === 0) return;
    try {
      const counts = await countUnread(this.db, present);
      for (const id of present)
        for (const listener of this.byUser.get(id) ?? []) this.deliver(listener, counts.get(id) ?? 0);
    } catch (error) {
      // A missed signal is caught by the next re-check; a stream never fails for it.
      this.log.warn({ err: error }, 'reading the unread alert counts failed');
    }
  }

  private deliver(listener: Listener, unread: number): void {
    if (listener.last === unread) return;
    listener.last = unread;
    listener.send(unread);
  }
}
