// A log for the witness's tests, honest or not: its own tree (the common RFC 9162 code), its own Ed25519 key,
// signed checkpoints of any size it holds, consistency proofs and tlog-witness request bodies.
import {
  createHash,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  type KeyObject,
} from 'node:crypto';
import { toBase64 } from '../../common/pick-log/base64.js';
import {
  appendNodes,
  consistencyProofPlan,
  leafHash,
  proofFromPlan,
  rangeNodes,
  rootFromFrontier,
  type NodeId,
} from '../../common/pick-log/merkle.js';
import {
  ed25519KeyId,
  formatCheckpoint,
  formatSignedNote,
  formatVerifierKey,
} from '../../common/pick-log/note.js';

const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());
const key = (id: NodeId) => `${id.level}:${id.index}`;

export class TestLog {
  private readonly nodes = new Map<string, Uint8Array>();
  private frontier: Uint8Array[] = [];
  size = 0;

  private constructor(
    readonly origin: string,
    readonly privateKey: KeyObject,
    readonly verifierKey: string,
    private readonly keyId: Uint8Array,
  ) {}

  /** A new empty log; with `privateKey`, a log sharing another's key (a rewrite by the same operator). */
  static async create(origin: string, privateKey?: KeyObject): Promise<TestLog> {
    const signing = privateKey ?? generateKeyPairSync('ed25519').privateKey;
    const jwk = createPublicKey(signing).export({ format: 'jwk' });
    const publicKey = new Uint8Array(Buffer.from(jwk.x!, 'base64url'));
    return new TestLog(
      origin,
      signing,
      await formatVerifierKey(origin, publicKey, sha256),
      await ed25519KeyId(origin, publicKey, sha256),
    );
  }

  /** Appends `count` random entries. */
  async append(count: number): Promise<this> {
    const leaves = await Promise.all(
      Array.from({ length: count }, () => leafHash(new Uint8Array(randomBytes(40)), sha256)),
    );
    for (const node of await appendNodes(this.size, this.frontier, leaves, sha256))
      this.nodes.set(key(node), node.hash);
    this.size += count;
    this.frontier = rangeNodes(0, this.size).map((id) => this.nodes.get(key(id))!);
    return this;
  }

  async root(size = this.size): Promise<Uint8Array> {
    return rootFromFrontier(
      rangeNodes(0, size).map((id) => this.nodes.get(key(id))!),
      sha256,
    );
  }

  async text(size = this.size): Promise<string> {
    return formatCheckpoint({ origin: this.origin, size, rootHash: await this.root(size), extensions: [] });
  }

  /** The checkpoint of `size` entries signed by the log's key (or a note of any text, signed). */
  async checkpoint(size = this.size, text?: string): Promise<string> {
    const body = text ?? (await this.text(size));
    const signature = new Uint8Array(sign(null, Buffer.from(body), this.privateKey));
    return formatSignedNote(body, [{ keyName: this.origin, keyId: this.keyId, signature }]);
  }

  async proof(first: number, second = this.size): Promise<Uint8Array[]> {
    return proofFromPlan(consistencyProofPlan(first, second), (id) => this.nodes.get(key(id))!, sha256);
  }

  /** An add-checkpoint body: `old <old>`, the proof from old to `size`, the empty line, the checkpoint. */
  async request(old: number, size = this.size, note?: string): Promise<string> {
    const proof = old === 0 || old >= size ? [] : await this.proof(old, size);
    return `old ${old}\n${proof.map((hash) => `${toBase64(hash)}\n`).join('')}\n${note ?? (await this.checkpoint(size))}`;
  }
}
