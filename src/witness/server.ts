// The witness's HTTP side (C2SP tlog-witness): POST /add-checkpoint and the monitoring GET
// /<origin hash>/checkpoint, on node:http. Every other request gets a short 4xx line, and a fault here a
// 500 line: never a stack trace.
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { isValidKeyName, parseVerifierKey, type VerifierKey } from '../common/pick-log/note.js';
import { loadOrCreateWitnessKey } from './key.js';
import { loadWitnessState, lockStateFile, saveWitnessState, type WitnessState } from './state.js';
import { Witness, sha256, type Answer } from './witness.js';

/** Far more than a checkpoint with 100 signature lines and 63 proof lines needs. */
export const MAX_BODY_BYTES = 64 * 1024;
const TEXT = 'text/plain; charset=utf-8';

export interface WitnessOptions {
  host: string;
  port: number;
  keyFile: string;
  stateFile: string;
  /** The logs' verifier keys (`<origin>+<key id>+<base64(0x01 ‖ key)>`). */
  logKeys: readonly string[];
  /** The witness's key name; by default the one its state file recorded, else `<host name>/witness`. */
  name?: string;
  log?: (line: string) => void;
  now?: () => number;
}

export interface RunningWitness {
  url: string;
  verifierKey: string;
  name: string;
  /** The key file was made at this start. */
  keyCreated: boolean;
  origins: string[];
  close(): Promise<void>;
}

/** A setting the witness cannot start with: one line for the person starting it. */
export class WitnessStartError extends Error {
  override readonly name = 'WitnessStartError';
}

/** `HOST:PORT` (`[::1]:PORT` for IPv6) as --listen takes it. */
export function parseListen(text: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text);
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65535)
    throw new WitnessStartError(
      `--listen takes HOST:PORT (e.g. 127.0.0.1:7380), not ${JSON.stringify(text)}`,
    );
  return { host: (match[1] ?? match[2])!, port };
}

async function parseLogKeys(texts: readonly string[]): Promise<VerifierKey[]> {
  if (!texts.length) throw new WitnessStartError('give the log to witness: --log-key "<log verifier key>"');
  const keys: VerifierKey[] = [];
  for (const text of texts) {
    try {
      keys.push(await parseVerifierKey(text.trim(), sha256));
    } catch (error) {
      throw new WitnessStartError(
        `--log-key ${JSON.stringify(text)} is not a log's verifier key (the site's /api/log/key): ${(error as Error).message}`,
      );
    }
  }
  return keys;
}

/**
 * The state, or a new one naming the witness; a name that differs from the recorded one is refused, and so is
 * a new state beside an existing key (the state is written before the key is made, so only a lost or
 * misnamed state file leaves a key without one).
 */
async function openState(file: string, name: string | undefined, keyFile: string): Promise<WitnessState> {
  const state = await loadWitnessState(file);
  if (state) {
    if (name !== undefined && name !== state.name)
      throw new WitnessStartError(
        `this witness is named ${state.name} (${file}); its name is part of its verifier key and never changes`,
      );
    return state;
  }
  if (existsSync(keyFile))
    throw new WitnessStartError(
      `the key file ${keyFile} exists but the state file ${file} does not: a witness that forgets what it ` +
        'cosigned could cosign a fork. Give the state file kept with this key (restore it from a backup), ' +
        'or start a new witness with a new key file.',
    );
  const fresh: WitnessState = { version: 1, name: name ?? `${os.hostname()}/witness`, logs: {} };
  if (!isValidKeyName(fresh.name))
    throw new WitnessStartError(`--name ${JSON.stringify(fresh.name)} is not a key name: no spaces, no "+"`);
  await saveWitnessState(file, fresh);
  return fresh;
}

/** Loads (or makes) the key and the state, and serves the witness until close(). */
export async function startWitness(options: WitnessOptions): Promise<RunningWitness> {
  const logKeys = await parseLogKeys(options.logKeys);
  const unlock = await lockStateFile(options.stateFile);
  try {
    const state = await openState(options.stateFile, options.name, options.keyFile);
    const key = await loadOrCreateWitnessKey(options.keyFile);
    const witness = await Witness.create({
      name: state.name,
      privateKey: key.privateKey,
      publicKey: key.publicKey,
      logKeys,
      stateFile: options.stateFile,
      state,
      now: options.now,
      log: options.log,
    });
    const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, (request, response) => {
      handle(witness, request, response).catch((error: unknown) => {
        // A client that went away mid-request: nobody to answer.
        if (!response.socket || response.socket.destroyed) return;
        options.log?.(`error: ${error instanceof Error ? error.message : String(error)}`);
        if (!response.headersSent) send(response, { status: 500, type: TEXT, body: 'internal error\n' });
        else response.destroy();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { address, port } = server.address() as AddressInfo;
    const host = address.includes(':') ? `[${address}]` : address;
    return {
      url: `http://${host}:${port}`,
      verifierKey: witness.verifierKey,
      name: state.name,
      keyCreated: key.created,
      origins: witness.origins,
      close: async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await witness.idle();
        await unlock();
      },
    };
  } catch (error) {
    await unlock();
    if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE')
      throw new WitnessStartError(`--listen: ${options.host}:${options.port} is in use`);
    throw error;
  }
}

const ORIGIN_CHECKPOINT = /^\/([0-9a-f]{64})\/checkpoint$/;

async function handle(witness: Witness, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { pathname } = new URL(request.url ?? '/', 'http://witness');
  if (pathname === '/add-checkpoint') {
    if (request.method !== 'POST')
      return send(response, text(405, 'add-checkpoint takes a POST'), { allow: 'POST' });
    const body = await readBody(request);
    if (body === null)
      return send(response, text(413, `the body is larger than ${MAX_BODY_BYTES} bytes`), {
        connection: 'close',
      });
    let decoded: string;
    try {
      decoded = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      return send(response, text(400, 'the body is not UTF-8'));
    }
    return send(response, await witness.addCheckpoint(decoded));
  }
  const monitored = ORIGIN_CHECKPOINT.exec(pathname);
  if (monitored) {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return send(response, text(405, 'a checkpoint is read with GET'), { allow: 'GET, HEAD' });
    return send(response, witness.latestCheckpoint(monitored[1]!));
  }
  send(
    response,
    text(
      404,
      'not found: this witness answers POST /add-checkpoint and GET /<origin SHA-256, hex>/checkpoint',
    ),
  );
}

const text = (status: number, body: string): Answer => ({ status, type: TEXT, body: `${body}\n` });

/** The body, or null past MAX_BODY_BYTES (the rest is not read: the connection closes). */
async function readBody(request: IncomingMessage): Promise<Buffer | null> {
  if (Number(request.headers['content-length']) > MAX_BODY_BYTES) return null;
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function send(
  response: ServerResponse,
  { status, type, body }: Answer,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(response.req.method === 'HEAD' ? undefined : body);
}
