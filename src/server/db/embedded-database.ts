// The main thread's side of the embedded database (db/pglite-worker.ts): starts the worker, and gives the
// `pg` driver a connection to it as a stream over a MessagePort, so that the app reaches the embedded
// PostgreSQL through the same driver, pool and drizzle dialect as a PostgreSQL server.
import { Duplex } from 'node:stream';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { workerEntry } from '../lib/worker-entry.js';
import type { FromWorker, PgliteWorkerData, ToWorker } from './pglite-worker.js';

/** A connection to the worker, shaped as the socket `pg` expects (connect, setNoDelay, setKeepAlive). */
class PortStream extends Duplex {
  private outgoing: Buffer[] = [];

  constructor(private readonly port: MessagePort) {
    super();
    port.on('message', (chunk: Uint8Array) =>
      this.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length)),
    );
    port.on('close', () => {
      this.push(null);
      this.destroy();
    });
  }

  connect(): this {
    setImmediate(() => this.emit('connect'));
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    this.port.ref();
    return this;
  }

  unref(): this {
    this.port.unref();
    return this;
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    // `pg` writes a query as several messages (Parse, Bind, Describe, Execute, Sync) in one go: they cross
    // to the worker as one message and run as one batch.
    if (this.outgoing.length === 0) queueMicrotask(() => this.flush());
    this.outgoing.push(chunk);
    callback();
  }

  private flush(): void {
    if (this.outgoing.length === 0) return;
    const bytes = new Uint8Array(Buffer.concat(this.outgoing));
    this.outgoing = [];
    this.port.postMessage(bytes, [bytes.buffer]);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.flush();
    this.port.close();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.port.close();
    callback(error);
  }
}

export interface EmbeddedWorker {
  /** A new connection, for `pg`'s `stream` option. */
  connect(): Duplex;
  dumpDataDir(): Promise<Blob>;
  close(): Promise<void>;
}

/**
 * The worker's JavaScript heap stays small (PGlite's code and the connections' bytes in flight; rows and
 * WebAssembly memory live outside it). Like the main thread's `--max-old-space-size` (decision 002), a
 * ceiling far above that: a leak stops the database, and the server with it, instead of growing on.
 */
const WORKER_MAX_OLD_GENERATION_MB = 256;

/**
 * Starts PGlite on its own thread. `onCrash` hears of a worker that died on its own (the database is gone
 * with it: the process should stop and be restarted).
 */
export async function startEmbeddedWorker(
  data: PgliteWorkerData,
  onCrash: (error: Error) => void,
  { maxOldGenerationSizeMb = WORKER_MAX_OLD_GENERATION_MB }: { maxOldGenerationSizeMb?: number } = {},
): Promise<EmbeddedWorker> {
  const entry = workerEntry(import.meta.url, 'pglite-worker');
  const worker = new Worker(entry.source, {
    eval: entry.eval,
    // Not the parent's options: `node --input-type=module -e …` (the bench's scripts) would be refused for a
    // worker started from a file. V8's flags (--liftoff-only) are the process's and apply anyway.
    execArgv: [],
    // The worker's own JavaScript is small (wire-protocol bytes in and out): a small young generation keeps
    // its heap from growing under load (the memory budget, bench/README.md).
    resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb },
    workerData: data,
    transferList: data.loadDataDir ? [data.loadDataDir.buffer as ArrayBuffer] : [],
  });
  let closing = false;
  let nextRequest = 1;
  const requests = new Map<
    number,
    { resolve: (bytes?: Uint8Array) => void; reject: (error: Error) => void }
  >();

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    worker.once('error', onError);
    worker.once('message', (message: FromWorker) => {
      worker.off('error', onError);
      if (message.type === 'ready') resolve();
      else if (message.type === 'failed') reject(new Error(message.message));
    });
  }).catch(async (error: unknown) => {
    await worker.terminate();
    throw error;
  });

  const failAll = (error: Error) => {
    for (const request of requests.values()) request.reject(error);
    requests.clear();
  };
  worker.on('message', (message: FromWorker) => {
    if (message.type !== 'reply') return;
    const request = requests.get(message.requestId);
    requests.delete(message.requestId);
    if (message.error) request?.reject(new Error(message.error));
    else request?.resolve(message.bytes);
  });
  worker.on('error', (error) => {
    failAll(error);
    if (!closing) onCrash(error);
  });
  worker.on('exit', (code) => {
    const error = new Error(`The embedded database stopped (exit code ${code}).`);
    failAll(error);
    if (!closing) onCrash(error);
  });

  const ask = (type: 'dump' | 'close') =>
    new Promise<Uint8Array | undefined>((resolve, reject) => {
      const requestId = nextRequest++;
      requests.set(requestId, { resolve, reject });
      worker.postMessage({ type, requestId } satisfies ToWorker);
    });

  return {
    connect: () => {
      const { port1, port2 } = new MessageChannel();
      worker.postMessage({ type: 'connect', port: port2 } satisfies ToWorker, [port2]);
      return new PortStream(port1);
    },
    dumpDataDir: async () => new Blob([new Uint8Array((await ask('dump')) ?? [])]),
    close: async () => {
      closing = true;
      try {
        await ask('close');
      } finally {
        await worker.terminate();
      }
    },
  };
}
