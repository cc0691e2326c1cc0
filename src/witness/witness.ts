// A C2SP tlog-witness: cosigns a log's checkpoint (C2SP tlog-cosignature, cosignature/v1) only when it is
// signed by the log's key and extends the last checkpoint this witness cosigned for that log, so that a log
// cannot show two histories and have both cosigned (docs/decisions/026).
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { bytesEqual, fromBase64, toBase64 } from '../common/pick-log/base64.js';
import {
  cosignatureLine,
  cosignerKeyId,
  formatCosignerKey,
  type Cosigner,
} from '../common/pick-log/cosignature.js';
import { emptyRoot, verifyConsistency } from '../common/pick-log/merkle.js';
import {
  parseCheckpoint,
  parseSignedNote,
  signatureLine,
  type Checkpoint,
  type NoteSignature,
  type VerifierKey,
} from '../common/pick-log/note.js';
import { toHex } from '../common/pick-seal.js';
import { saveWitnessState, type WitnessState } from './state.js';

/** tlog-witness: "The client MUST NOT send more than 63 consistency proof lines." */
export const MAX_PROOF_LINES = 63;
const OLD_LINE = /^old (0|[1-9][0-9]*)$/;
const TEXT = 'text/plain; charset=utf-8';
/** tlog-witness: the 409 answer's type, its body the witness's size. */
export const SIZE_TYPE = 'text/x.tlog.size';

export const sha256 = (bytes: Uint8Array): Uint8Array =>
  new Uint8Array(createHash('sha256').update(bytes).digest());

export interface Answer {
  status: number;
  type: string;
  body: string;
}

export interface WitnessSettings {
  /** The witness's key name (its verifier key's name). */
  name: string;
  privateKey: KeyObject;
  publicKey: Uint8Array;
  /** The logs it witnesses: their verifier keys (signed-note Ed25519); a key's name is its log's origin. */
  logKeys: readonly VerifierKey[];
  stateFile: string;
  state: WitnessState;
  /** Milliseconds since the epoch: the cosignatures' time. */
  now?: () => number;
  /** One line per cosignature and per refused checkpoint that the log signed (evidence of a fork). */
  log?: (line: string) => void;
}

interface TrustedKey extends VerifierKey {
  object: KeyObject;
}

export interface AddCheckpointRequest {
  old: number;
  proof: Uint8Array[];
  text: string;
  checkpoint: Checkpoint;
  signatures: NoteSignature[];
}

/** A request the witness cannot read: 400 with this message. */
export class MalformedRequest extends Error {}

/** Reads an add-checkpoint body: `old <size>`, up to 63 base64 hashes, an empty line, the signed checkpoint. */
export function parseAddCheckpoint(body: string): AddCheckpointRequest {
  // The proof lines are never empty, so the first empty line ends them (the note has one of its own later).
  const split = body.indexOf('\n\n');
  if (split < 0)
    throw new MalformedRequest(
      'the body must be "old <size>", the consistency proof lines, an empty line, then the signed checkpoint',
    );
  const [oldLine = '', ...proofLines] = body.slice(0, split).split('\n');
  const old = OLD_LINE.exec(oldLine);
  if (!old || !Number.isSafeInteger(Number(old[1])))
    throw new MalformedRequest(
      'the first line must be "old <size>", the size in decimal without leading zeros',
    );
  if (proofLines.length > MAX_PROOF_LINES)
    throw new MalformedRequest(`more than ${MAX_PROOF_LINES} consistency proof lines`);
  const proof = proofLines.map((line, i) => {
    let hash: Uint8Array | null = null;
    try {
      hash = fromBase64(line);
    } catch {
      // said below
    }
    if (hash?.length !== 32)
      throw new MalformedRequest(`consistency proof line ${i + 1} is not a SHA-256 hash in standard base64`);
    return hash;
  });
  try {
    const { text, signatures } = parseSignedNote(body.slice(split + 2));
    return { old: Number(old[1]), proof, text, checkpoint: parseCheckpoint(text), signatures };
  } catch (error) {
    throw new MalformedRequest(`the checkpoint is not a signed checkpoint: ${(error as Error).message}`);
  }
}

const answer = (status: number, body: string, type = TEXT): Answer => ({
  status,
  type,
  body: body.endsWith('\n') ? body : `${body}\n`,
});

export class Witness {
  private readonly logs = new Map<string, TrustedKey[]>();
  private readonly originsByHash = new Map<string, string>();
  private state: WitnessState;
  /** Checks against the state and its update, one request at a time (tlog-witness: they are atomic). */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly settings: WitnessSettings,
    private readonly cosigner: Cosigner,
    readonly verifierKey: string,
    private readonly emptyRoot: Uint8Array,
  ) {
    this.state = settings.state;
    for (const key of settings.logKeys) {
      const object = createPublicKey({
        key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(key.publicKey).toString('base64url') },
        format: 'jwk',
      });
      const keys = this.logs.get(key.name) ?? [];
      keys.push({ ...key, object });
      this.logs.set(key.name, keys);
    }
    for (const origin of [...this.logs.keys(), ...Object.keys(this.state.logs)])
      this.originsByHash.set(toHex(sha256(new TextEncoder().encode(origin))), origin);
  }

  static async create(settings: WitnessSettings): Promise<Witness> {
    const verifierKey = await formatCosignerKey(settings.name, settings.publicKey, sha256);
    const cosigner = {
      name: settings.name,
      keyId: await cosignerKeyId(settings.name, settings.publicKey, sha256),
    };
    return new Witness(settings, cosigner, verifierKey, await emptyRoot(sha256));
  }

  /** The origins of the logs this witness cosigns. */
  get origins(): string[] {
    return [...this.logs.keys()];
  }

  /** POST /add-checkpoint, as C2SP tlog-witness specifies its answers. */
  async addCheckpoint(body: string): Promise<Answer> {
    let request: AddCheckpointRequest;
    try {
      request = parseAddCheckpoint(body);
    } catch (error) {
      if (error instanceof MalformedRequest) return answer(400, error.message);
      throw error;
    }
    const { old, checkpoint, text, signatures } = request;
    const keys = this.logs.get(checkpoint.origin);
    if (!keys)
      return answer(404, `this witness does not witness the log ${JSON.stringify(checkpoint.origin)}`);
    const logLines = this.logSignatureLines(text, signatures, keys);
    // Not logged: anyone can send a checkpoint the log never signed; it proves nothing about the log.
    if (typeof logLines === 'string') return answer(403, logLines);
    if (old > checkpoint.size)
      return answer(400, `the old size ${old} is larger than the checkpoint's size ${checkpoint.size}`);
    const run = this.queue.then(() => this.cosignIfConsistent(request, logLines));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves once every request taken so far has been answered (or has failed). */
  async idle(): Promise<void> {
    await this.queue;
  }

  /** GET /<hex SHA-256 of the origin>/checkpoint: the latest checkpoint cosigned for that log. */
  latestCheckpoint(originHash: string): Answer {
    const origin = this.originsByHash.get(originHash);
    const cosigned = origin === undefined ? undefined : this.state.logs[origin];
    if (!cosigned) return answer(404, 'this witness has cosigned no checkpoint of that log');
    return answer(200, cosigned.note);
  }

  /**
   * The log's own signature lines, verified: lines from keys it does not trust for the origin are ignored,
   * a trusted key's line that does not verify refuses the checkpoint (tlog-witness: 403). A message if none.
   */
  private logSignatureLines(
    text: string,
    signatures: readonly NoteSignature[],
    keys: readonly TrustedKey[],
  ): string[] | string {
    const message = new TextEncoder().encode(text);
    const lines: string[] = [];
    for (const line of signatures) {
      const key = keys.find((k) => k.name === line.keyName && bytesEqual(k.keyId, line.keyId));
      if (!key) continue;
      if (line.signature.length !== 64 || !verify(null, message, key.object, line.signature))
        return `the signature by the log's key ${key.name}+${toHex(key.keyId)} does not verify`;
      lines.push(signatureLine(line));
    }
    if (!lines.length)
      return `the checkpoint is not signed by a key this witness trusts for ${keys[0]!.name}`;
    return lines;
  }

  private async cosignIfConsistent(request: AddCheckpointRequest, logLines: string[]): Promise<Answer> {
    const { old, proof, text, checkpoint } = request;
    const { origin, size, rootHash } = checkpoint;
    const latest = this.state.logs[origin];
    const latestSize = latest?.size ?? 0;
    if (old !== latestSize) return answer(409, String(latestSize), SIZE_TYPE);
    const refuse = (why: string) => {
      // tlog-witness: a signed checkpoint that fails these checks may be proof of the log's misbehaviour.
      this.record(`refused ${origin} size ${size} (422: ${why}): ${JSON.stringify(request.text)}`);
      return answer(422, why);
    };
    if (size === 0 && !bytesEqual(rootHash, this.emptyRoot))
      return refuse("a checkpoint of size 0 must have the empty tree's root hash");
    if (old === 0 && proof.length > 0)
      return refuse('the old size is 0: the consistency proof must be empty');
    const latestRoot = latest ? fromBase64(latest.root) : this.emptyRoot;
    if (!(await verifyConsistency(old, size, latestRoot, rootHash, proof, sha256)))
      return refuse(
        old === size
          ? `another root hash for size ${size} than the one this witness cosigned: a fork`
          : `the consistency proof from size ${old} does not verify: this is not an extension of the checkpoint this witness cosigned`,
      );
    const timestamp = Math.floor((this.settings.now?.() ?? Date.now()) / 1000);
    const line = await cosignatureLine(text, this.cosigner, timestamp, (message) =>
      sign(null, message, this.settings.privateKey),
    );
    const next: WitnessState = {
      ...this.state,
      logs: {
        ...this.state.logs,
        [origin]: {
          size,
          root: toBase64(rootHash),
          note: `${text}\n${logLines.join('')}${line}`,
          cosignedAt: new Date(timestamp * 1000).toISOString(),
        },
      },
    };
    // Persisted before the answer: a restart must remember every checkpoint it ever answered for.
    await saveWitnessState(this.settings.stateFile, next);
    this.state = next;
    this.originsByHash.set(toHex(sha256(new TextEncoder().encode(origin))), origin);
    this.record(`cosigned ${origin} size ${size} root ${toBase64(rootHash)} (from size ${old})`);
    return answer(200, line);
  }

  private record(line: string): void {
    this.settings.log?.(line);
  }
}
