// The log's writer: numbers the entries that actions wrote (in batches, in one transaction each:
// a group commit for the log), then signs a checkpoint of the new size. It runs when this process appends
// (a request that appended waits for its entries' numbers before it answers: `flush`), and polls every
// second for entries written elsewhere (another instance, a command-line import). Under load one run numbers
// every entry written since the last, and one signature covers them all.
import { sign } from 'node:crypto';
import { formatCheckpoint, formatSignedNote } from '#common/pick-log/note.js';
import type { Db } from '#server/db/client.js';
import { hasPending, insertCheckpoint, logSize, type CheckpointRow } from './log-repository.js';
import type { LogKey } from './log-key.js';
import { rootAt, sequencePending, type CheckpointCache } from './log-service.js';

const TICK_MS = 200;
const POLL_MS = 1000;
/**
 * Entries numbered per transaction. Hashing and storing a batch is main-thread work between two queries: at
 * 1,000 it stays a few milliseconds, so a grading's 10,000 entries never hold other requests for long.
 */
export const BATCH = 1000;

export class LogWriter {
  private signedSize = -1;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private waiters: (() => void)[] = [];
  private woken = false;
  private lastPoll = 0;

  constructor(
    private readonly db: Db,
    private readonly key: LogKey,
    private readonly checkpoints: CheckpointCache,
    private readonly onError: (err: unknown) => void,
    /** Each checkpoint signed, for the witnesses (witnesses.ts); called without waiting. */
    private readonly onSigned: (checkpoint: CheckpointRow) => void = () => {},
  ) {}

  /** Numbers what waits and signs the current size now (there is always a checkpoint to serve), then keeps up. */
  async start(): Promise<void> {
    await this.sequenceAll();
    await this.signLatest();
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** This process appended: number it soon (its transaction may not have committed yet). */
  wake(): void {
    this.woken = true;
  }

  /** Resolves once a run that started after this call has numbered every committed entry. */
  flush(): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.kick();
    });
  }

  private tick(): void {
    const now = Date.now();
    if (!this.woken && now - this.lastPoll < POLL_MS) return;
    this.woken = false;
    this.lastPoll = now;
    this.kick();
  }

  private kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = null;
    });
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      const waiting = this.waiters.splice(0);
      try {
        await this.sequenceAll();
      } catch (err) {
        this.onError(err);
      }
      // Answered even after a failure: the entries stay waiting, the next run numbers them.
      for (const resolve of waiting) resolve();
      try {
        await this.signLatest();
      } catch (err) {
        this.onError(err);
      }
    } while (this.again || this.waiters.length);
  }

  private async sequenceAll(): Promise<void> {
    // Nothing waiting (the poll's answer most seconds): one read, no transaction. Numbering takes the log's
    // row lock, and that empty transaction's commit would hold the embedded database every second, the
    // tail of every other query there.
    if (!(await hasPending(this.db))) return;
    while ((await sequencePending(this.db, BATCH)) === BATCH);
  }

  /** Signs a checkpoint of the log as committed now, unless that size is signed already. */
  async signLatest(): Promise<CheckpointRow | null> {
    const size = await logSize(this.db);
    if (size === this.signedSize) return null;
    const root = await rootAt(this.db, size);
    const text = formatCheckpoint({ origin: this.key.origin, size, rootHash: root, extensions: [] });
    const signature = sign(null, Buffer.from(text, 'utf8'), this.key.privateKey);
    const note = formatSignedNote(text, [
      { keyName: this.key.origin, keyId: this.key.keyId, signature: new Uint8Array(signature) },
    ]);
    const row = { size, root, note };
    await insertCheckpoint(this.db, row);
    this.signedSize = size;
    this.checkpoints.set(row);
    this.onSigned(row);
    return row;
  }
}
