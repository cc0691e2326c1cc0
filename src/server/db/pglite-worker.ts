// The embedded database's thread, so that no query may stall other requests. PGlite runs PostgreSQL
// compiled to WebAssembly: a query runs to its end on the thread that called it. Here, in a worker thread,
// a slow search does not hold the HTTP server's event loop; the main thread speaks PostgreSQL's wire
// protocol to it through the `pg` driver, one MessagePort per connection (db/embedded-database.ts), exactly
// as it speaks to a PostgreSQL server. No socket is opened: nothing outside this process can reach it.
//
// PGlite has one backend, so connections take turns: the one whose messages are running keeps the backend
// until PostgreSQL says it is idle again (ReadyForQuery 'I'), which covers an extended-query sequence up to
// its Sync and a whole transaction; only then do the next connection's messages run.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export interface PgliteWorkerData {
  dataDir: string | undefined;
  /** PostgreSQL settings added to PGlite's default start parameters. */
  startParams: string[];
  /** A dump (dumpDataDir) to start from, as bytes. */
  loadDataDir: Uint8Array | undefined;
}

/** From the main thread: a new connection's port, or a request answered by `{ requestId, ... }`. */
export type ToWorker =
  | { type: 'connect'; port: MessagePort }
  | { type: 'dump'; requestId: number }
  | { type: 'close'; requestId: number };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'reply'; requestId: number; bytes?: Uint8Array; error?: string };

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const GSSENC_REQUEST = 80877104;
const TERMINATE = 0x58; // 'X'
const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I'

class Connection {
  private buffer = Buffer.alloc(0);
  private started = false;
  /** Complete frontend messages not yet run. */
  pending: Buffer[] = [];
  closed = false;

  constructor(readonly port: MessagePort) {}

  /** Adds bytes; returns true when at least one complete message is waiting. */
  receive(chunk: Uint8Array): boolean {
    this.buffer = this.buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (!this.started) {
        // Start-up packets have no type byte: length, then a code.
        if (this.buffer.length < 8) break;
        const length = this.buffer.readInt32BE(0);
        if (this.buffer.length < length) break;
        const code = this.buffer.readInt32BE(4);
        const packet = this.buffer.subarray(0, length);
        this.buffer = this.buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          this.send(Buffer.from('N')); // no encryption inside one process
        } else if (code !== CANCEL_REQUEST) {
          this.started = true;
          this.pending.push(Buffer.from(packet));
        }
        continue;
      }
      if (this.buffer.length < 5) break;
      const length = 1 + this.buffer.readInt32BE(1);
      if (this.buffer.length < length) break;
      const message = this.buffer.subarray(0, length);
      this.buffer = this.buffer.subarray(length);
      if (message[0] === TERMINATE) {
        this.closed = true;
        break;
      }
      this.pending.push(Buffer.from(message));
    }
    return this.pending.length > 0;
  }

  send(bytes: Uint8Array): void {
    if (this.closed || bytes.length === 0) return;
    // Moved (not cloned) to the main thread: bytes that own their whole buffer as they are, others as a copy
    // of exactly these bytes (a Buffer may be a slice of a shared pool).
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    const moved = own ? bytes : new Uint8Array(bytes);
    this.port.postMessage(moved, [moved.buffer as ArrayBuffer]);
  }
}

/** The status byte of the last ReadyForQuery in a backend answer, if it holds one. */
function lastReadyStatus(bytes: Uint8Array): number | undefined {
  let status: number | undefined;
  let at = 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  while (at + 5 <= bytes.length) {
    const type = bytes[at];
    const length = view.getInt32(at + 1);
    if (type === READY_FOR_QUERY && length === 5 && at + 5 < bytes.length) status = bytes[at + 5];
    at += 1 + length;
  }
  return status;
}

/**
 * The backend's answer to these messages, as bytes. Not `execProtocolRaw`: in PGlite 0.5 it also parses every
 * answer into JavaScript objects and keeps them in a list that only `execProtocol` empties, so a connection
 * that speaks raw protocol (all of ours) would grow the worker's heap by every row it ever read and spend
 * most of its time parsing. The stream variant hands over the
 * bytes as PostgreSQL writes them (a view of the WebAssembly memory, so copied at once) and parses nothing.
 */
async function answerTo(db: PGlite, messages: Buffer): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  await db.execProtocolRawStream(messages, { onRawData: (data) => chunks.push(data.slice()) });
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

async function run(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('pglite-worker runs as a worker thread');
  const options = workerData as PgliteWorkerData;
  let db: PGlite;
  try {
    db = await PGlite.create({
      dataDir: options.dataDir,
      startParams: [...PGlite.defaultStartParams, ...options.startParams],
      // pg_trgm serves the catalog search's index, as on a PostgreSQL server.
      extensions: { pg_trgm },
      loadDataDir: options.loadDataDir ? new Blob([new Uint8Array(options.loadDataDir)]) : undefined,
    });
  } catch (error) {
    port.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    return;
  }

  /** The connection holding the backend (mid-transaction or mid-sequence), if any. */
  let owner: Connection | null = null;
  const waiting: Connection[] = [];
  /** Work that needs the backend to itself (dump, close), run when no connection holds it. */
  const tasks: (() => Promise<void>)[] = [];
  let pumping = false;

  const execute = async (connection: Connection, messages: Buffer) => {
    try {
      const answer = await answerTo(db, messages);
      const status = lastReadyStatus(answer);
      connection.send(answer); // moves it: read it before
      return status;
    } catch (error) {
      // PGlite itself failed (not an SQL error, which PostgreSQL answers in the protocol): drop the
      // connection so that its query fails rather than waits for ever.
      console.error(
        'embedded database: a query could not run:',
        error instanceof Error ? error.message : error,
      );
      connection.closed = true;
      connection.port.close();
      return IDLE;
    }
  };

  const pump = async () => {
    if (pumping) return;
    pumping = true;
    try {
      for (;;) {
        let connection = owner;
        if (!connection) {
          const task = tasks.shift();
          if (task) {
            await task();
            continue;
          }
          connection = waiting.shift() ?? null;
          if (!connection) break;
          if (connection.closed || connection.pending.length === 0) continue;
          owner = connection;
        }
        if (connection.pending.length === 0) {
          if (!connection.closed) break; // its next messages will come
          // It went away holding the backend (mid-transaction): undo what it left open.
          await db.exec('rollback').catch(() => {});
          owner = null;
          continue;
        }
        const messages =
          connection.pending.length === 1 ? connection.pending[0]! : Buffer.concat(connection.pending);
        connection.pending = [];
        const status = await execute(connection, messages);
        if (status === IDLE) {
          owner = null;
          if (connection.pending.length > 0) waiting.push(connection);
        }
      }
    } finally {
      pumping = false;
    }
  };

  const connect = (connectionPort: MessagePort) => {
    const connection = new Connection(connectionPort);
    connectionPort.on('message', (chunk: Uint8Array) => {
      const hadWork = connection.pending.length > 0;
      if (connection.receive(chunk) && !hadWork && owner !== connection) waiting.push(connection);
      if (connection.closed) connectionPort.close();
      void pump();
    });
    connectionPort.on('close', () => {
      connection.closed = true;
      void pump();
    });
  };

  port.on('message', (message: ToWorker) => {
    if (message.type === 'connect') {
      connect(message.port);
      return;
    }
    const reply = (payload: { bytes?: Uint8Array; error?: string }) =>
      port.postMessage({ type: 'reply', requestId: message.requestId, ...payload } satisfies FromWorker);
    if (message.type === 'dump') {
      tasks.push(async () => {
        try {
          const blob = await db.dumpDataDir('gzip');
          reply({ bytes: new Uint8Array(await blob.arrayBuffer()) });
        } catch (error) {
          reply({ error: error instanceof Error ? error.message : String(error) });
        }
      });
    } else {
      tasks.push(async () => {
        try {
          await db.close();
          reply({});
        } catch (error) {
          reply({ error: error instanceof Error ? error.message : String(error) });
        }
        port.close();
      });
    }
    void pump();
  });
  port.postMessage({ type: 'ready' } satisfies FromWorker);
}

void run();
