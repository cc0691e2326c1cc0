// A log of the bench's own for the witness to cosign: its tree and checkpoints made with the common pick-log
// code as the witness's build emits it (dist/witness/common), signed with a key of its own, and the
// add-checkpoint bodies a site sends (as src/witness/testing/test-log.ts does for the tests).
import { createHash, createPublicKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../../lib/server.mjs';

const common = path.join(root, 'dist/witness/common/pick-log');
const load = (name) => import(pathToFileURL(path.join(common, name)).href);

const sha256 = (bytes) => new Uint8Array(createHash('sha256').update(bytes).digest());
const key = (id) => `${id.level}:${id.index}`;

export async function createBenchLog(origin) {
  const merkle = await load('merkle.js');
  const note = await load('note.js');
  const { toBase64 } = await load('base64.js');
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const publicKey = new Uint8Array(Buffer.from(jwk.x, 'base64url'));
  const keyId = await note.ed25519KeyId(origin, publicKey, sha256);
  const nodes = new Map();
  let frontier = [];
  const log = {
    origin,
    size: 0,
    verifierKey: await note.formatVerifierKey(origin, publicKey, sha256),
    async append(count) {
      const leaves = await Promise.all(
        Array.from({ length: count }, () => merkle.leafHash(new Uint8Array(randomBytes(200)), sha256)),
      );
      for (const node of await merkle.appendNodes(log.size, frontier, leaves, sha256))
        nodes.set(key(node), node.hash);
      log.size += count;
      frontier = merkle.rangeNodes(0, log.size).map((id) => nodes.get(key(id)));
    },
    /** The add-checkpoint body from `old` to the current size: what the site POSTs to a witness. */
    async request(old) {
      const root = await merkle.rootFromFrontier(frontier, sha256);
      const text = note.formatCheckpoint({ origin, size: log.size, rootHash: root, extensions: [] });
      const signature = new Uint8Array(sign(null, Buffer.from(text), privateKey));
      const signed = note.formatSignedNote(text, [{ keyName: origin, keyId, signature }]);
      const proof =
        old === 0 || old >= log.size
          ? []
          : await merkle.proofFromPlan(
              merkle.consistencyProofPlan(old, log.size),
              (id) => nodes.get(key(id)),
              sha256,
            );
      return `old ${old}\n${proof.map((hash) => `${toBase64(hash)}\n`).join('')}\n${signed}`;
    },
  };
  return log;
}
