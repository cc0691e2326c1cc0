// Named locks that every instance on the database honours (a tus upload may be written through
// any instance, never through two at once; docs/decisions/024).
//
// On PostgreSQL: session-level advisory locks, all of an instance's on one connection of its own outside
// the pool. PostgreSQL ends them when that connection ends, so an instance killed mid-write (kill -9, a
// crash: the kernel closes its sockets) frees its uploads at once, with no lease to wait out. A connection
// lost while the instance lives loses its locks too: `lost` fires, and the holder stops writing.
// On the embedded database: one process only (its data directory is locked), so a set in memory is
// exact; it is kept per database object so that apps sharing one in a test share it too.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Database } from './client.js';

export interface HeldLock {
  /** Aborted if the lock is lost before release() (the lock connection ended): stop the guarded work. */
  readonly lost: AbortSignal;
  /** Idempotent. */
  release(): Promise<void>;
}

export interface SharedLocks {
  /** The lock, or null when another holder (here or on another instance) has it. Never waits. */
  tryLock(name: string): Promise<HeldLock | null>;
  /** Waits for the lock, asking every `pollMs`, up to `timeoutMs`; null if it stayed taken. */
  lock(name: string, options?: { timeoutMs?: number; pollMs?: number }): Promise<HeldLock | null>;
  /** Releases everything this instance holds (shutdown). */
  close(): Promise<void>;
}

/** The two int4 keys of `name`'s advisory lock: the namespace, and 32 bits of the name's SHA-256. */
function lockKeys(namespace: number, name: string): [number, number] {
  return [namespace, createHash('sha256').update(name).digest().readInt32BE(0)];
}

abstract class LocksBase implements SharedLocks {
  /** This instance's held locks: a session's advisory locks are re-entrant, so a second taker is refused here. */
  protected readonly held = new Map<string, AbortController>();

  abstract tryLock(name: string): Promise<HeldLock | null>;
  abstract close(): Promise<void>;

  async lock(name: string, options: { timeoutMs?: number; pollMs?: number } = {}): Promise<HeldLock | null> {
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    for (;;) {
      const held = await this.tryLock(name);
      if (held || Date.now() >= deadline) return held;
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 200));
    }
  }

  protected heldLock(name: string, controller: AbortController, unlock: () => Promise<void>): HeldLock {
    return {
      lost: controller.signal,
      release: async () => {
        if (this.held.get(name) !== controller) return;
        this.held.delete(name);
        await unlock();
      },
    };
  }
}

class PostgresLocks extends LocksBase {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private closed = false;

  constructor(
    private readonly open: () => pg.Client,
    private readonly namespace: number,
  ) {
    super();
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = this.open();
      client.on('error', () => this.dropped(client));
      client.on('end', () => this.dropped(client));
      try {
        await client.connect();
      } catch (error) {
        this.connecting = null;
        throw error;
      }
      if (this.closed) {
        await client.end().catch(() => {});
        throw new Error('The locks are closed.');
      }
      this.client = client;
      return client;
    })();
    return this.connecting;
  }

  /** The connection ended: PostgreSQL has released its locks, so their holders must stop. */
  private dropped(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.connecting = null;
    const lost = [...this.held.values()];
    this.held.clear();
    for (const controller of lost) controller.abort(new Error('The lock connection ended.'));
  }

  async tryLock(name: string): Promise<HeldLock | null> {
    if (this.closed || this.held.has(name)) return null;
    const controller = new AbortController();
    this.held.set(name, controller);
    const [a, b] = lockKeys(this.namespace, name);
    let client: pg.Client;
    try {
      client = await this.connection();
      const result = await client.query<{ ok: boolean }>(
        'select pg_try_advisory_lock($1::int, $2::int) as ok',
        [a, b],
      );
      if (!result.rows[0]?.ok) {
        if (this.held.get(name) === controller) this.held.delete(name);
        return null;
      }
    } catch (error) {
      if (this.held.get(name) === controller) this.held.delete(name);
      throw error;
    }
    // Lost while the answer travelled: not held after all.
    if (this.held.get(name) !== controller) return null;
    return this.heldLock(name, controller, async () => {
      if (this.client !== client) return; // that connection is gone, and its locks with it
      try {
        await client.query('select pg_advisory_unlock($1::int, $2::int)', [a, b]);
      } catch {
        // Unknown whether it was released: ending the connection releases it for sure.
        await client.end().catch(() => {});
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client ?? (await this.connecting?.catch(() => null)) ?? null;
    for (const controller of this.held.values()) controller.abort(new Error('The server is stopping.'));
    this.held.clear();
    this.client = null;
    if (client) await client.end().catch(() => {});
  }
}

/** Names held in this process, per embedded database (one process per database: its data directory lock). */
const embeddedHeld = new WeakMap<Database, Set<string>>();

class EmbeddedLocks extends LocksBase {
  constructor(
    private readonly taken: Set<string>,
    private readonly namespace: number,
  ) {
    super();
  }

  async tryLock(name: string): Promise<HeldLock | null> {
    const key = `${this.namespace}:${name}`;
    if (this.taken.has(key)) return null;
    this.taken.add(key);
    const controller = new AbortController();
    this.held.set(name, controller);
    return this.heldLock(name, controller, async () => {
      this.taken.delete(key);
    });
  }

  async close(): Promise<void> {
    for (const [name, controller] of this.held) {
      controller.abort(new Error('The server is stopping.'));
      this.taken.delete(`${this.namespace}:${name}`);
    }
    this.held.clear();
  }
}

/** Locks named within `namespace` (an int4 of the caller's: advisory lock keys are one space per database). */
export function openSharedLocks(database: Database, namespace: number): SharedLocks {
  if (database.kind === 'postgres' && database.dedicatedClient) {
    return new PostgresLocks(database.dedicatedClient, namespace);
  }
  let taken = embeddedHeld.get(database);
  if (!taken) embeddedHeld.set(database, (taken = new Set()));
  return new EmbeddedLocks(taken, namespace);
}
