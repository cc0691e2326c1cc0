// Signs a checkpoint within a second of an append (issue 15): woken by appends in this process, and polling
// the log's size every second for appends made elsewhere (another instance, a command-line import).
// Under load one signature covers every append since the last: batching comes from signing the size read.
import { sign } from 'node:crypto';
import { formatCheckpoint, formatSignedNote } from '#common/pick-log/note.js';
import type { Db } from '#server/db/client.js';
import { insertCheckpoint, logSize, type CheckpointRow } from './log-repository.js';
import type { LogKey } from './log-key.js';
import { rootAt, type CheckpointCache } from './log-service.js';

const TICK_MS = 200;
const POLL_MS = 1000;

export class CheckpointSigner {
  private signedSize = -1;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private woken = false;
  private lastPoll = 0;

  constructor(
    private readonly db: Db,
    private readonly key: LogKey,
    private readonly checkpoints: CheckpointCache,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Signs the current size now (at start: there is always a checkpoint to serve), then keeps up. */
  async start(): Promise<void> {
    await this.signLatest();
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  wake(): void {
    this.woken = true;
  }

  private tick(): void {
    if (this.running) return;
    const now = Date.now();
    if (!this.woken && now - this.lastPoll < POLL_MS) return;
    this.woken = false;
    this.lastPoll = now;
    this.running = this.signLatest()
      .then(() => undefined)
      .catch((err: unknown) => this.onError(err))
      .finally(() => {
        this.running = null;
      });
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
    return row;
  }
}
