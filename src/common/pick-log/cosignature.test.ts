import { createHash, createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  COSIGNATURE_V1,
  cosignatureLine,
  cosignatureMessage,
  cosignerKeyId,
  formatCosignerKey,
  parseCosignerKey,
  parseCosignerKeySync,
  parseTimestampedSignature,
  signatureLinesOf,
  timestampedSignature,
  verifyCosignature,
} from './cosignature.js';
import {
  formatVerifierKey,
  parseVerifierKey,
  verifySignedNote,
  webCryptoEd25519Verify,
  webCryptoSha256,
} from './note.js';

const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());

// RFC 8032 §7.1 TEST 1: a fixed Ed25519 key, so the lines below are known answers.
const SEED = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
const PUBLIC = Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex');
const privateKey: KeyObject = createPrivateKey({
  key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), SEED]),
  format: 'der',
  type: 'pkcs8',
});
const NAME = 'witness.example/w1';
// c2sp.org/tlog-cosignature's example checkpoint and time.
const TEXT = 'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';
const TIME = 1679315147;

/** The key id as C2SP signed-note and tlog-cosignature define it, computed here from the definition. */
const expectedKeyId = createHash('sha256')
  .update(Buffer.concat([Buffer.from(NAME), Buffer.from([0x0a, 0x04]), PUBLIC]))
  .digest()
  .subarray(0, 4);
const VKEY = `${NAME}+${expectedKeyId.toString('hex')}+${Buffer.concat([Buffer.from([4]), PUBLIC]).toString('base64')}`;

/** A signature line written by hand from the spec: timestamp (u64, big-endian) ‖ Ed25519 signature. */
function handmadeLine(text: string, timestamp: number, key = privateKey, keyId = expectedKeyId): string {
  const message = Buffer.from(`cosignature/v1\ntime ${timestamp}\n${text}`);
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(BigInt(timestamp));
  const signature = Buffer.concat([keyId, time, sign(null, message, key)]);
  return `— ${NAME} ${signature.toString('base64')}\n`;
}

describe('cosignature/v1 keys', () => {
  it('writes the verifier key with signature type 0x04 and the key id of SHA-256(name ‖ 0x0A ‖ 0x04 ‖ key)', async () => {
    expect(COSIGNATURE_V1).toBe(0x04);
    expect(Buffer.from(await cosignerKeyId(NAME, PUBLIC, sha256))).toEqual(expectedKeyId);
    expect(await formatCosignerKey(NAME, PUBLIC, sha256)).toBe(VKEY);
    expect(await formatCosignerKey(NAME, PUBLIC, webCryptoSha256)).toBe(VKEY);
  });

  it('parses it back, with the async and the sync SHA-256', async () => {
    for (const key of [await parseCosignerKey(VKEY, sha256), parseCosignerKeySync(VKEY, sha256)]) {
      expect(key.name).toBe(NAME);
      expect(Buffer.from(key.keyId)).toEqual(expectedKeyId);
      expect(Buffer.from(key.publicKey)).toEqual(PUBLIC);
    }
  });

  it("refuses a log's Ed25519 key (type 0x01), a wrong key id, and what is not a key", async () => {
    const logKey = await formatVerifierKey(NAME, PUBLIC, sha256);
    await expect(parseCosignerKey(logKey, sha256)).rejects.toThrow(/not a cosignature\/v1 .* 0x04/);
    expect(() => parseCosignerKeySync(logKey, sha256)).toThrow(/its first byte is not 0x04/);
    // …and the other way round: a witness's key is no log key.
    await expect(parseVerifierKey(VKEY, sha256)).rejects.toThrow(/not an Ed25519 key/);
    const wrongId = VKEY.replace(`+${expectedKeyId.toString('hex')}+`, '+00000000+');
    await expect(parseCosignerKey(wrongId, sha256)).rejects.toThrow(/key id does not match/);
    expect(() => parseCosignerKeySync(wrongId, sha256)).toThrow(/key id does not match/);
    expect(() => parseCosignerKeySync('witness.example/w1', sha256)).toThrow(/<name>\+<key id>\+<key>/);
    expect(() => parseCosignerKeySync(VKEY.slice(0, -4), sha256)).toThrow(/base64|bytes/);
  });
});

describe('cosignature/v1 signatures', () => {
  it('signs the message of the spec: header line, time line, then the note text', () => {
    expect(new TextDecoder().decode(cosignatureMessage(TEXT, TIME))).toBe(
      `cosignature/v1\ntime 1679315147\n${TEXT}`,
    );
    expect(() => cosignatureMessage(TEXT.slice(0, -1), TIME)).toThrow(/newline/);
    expect(() => cosignatureMessage(TEXT, -1)).toThrow(/timestamp/);
    expect(() => cosignatureMessage(TEXT, 1.5)).toThrow(/timestamp/);
  });

  it('writes the line a witness answers: key id, big-endian timestamp, Ed25519 signature', async () => {
    const line = await cosignatureLine(TEXT, { name: NAME, keyId: expectedKeyId }, TIME, (message) =>
      sign(null, message, privateKey),
    );
    expect(line).toBe(handmadeLine(TEXT, TIME));
  });

  it('packs and unpacks the timestamped signature; refuses wrong lengths and timestamps past 2^63 - 1', () => {
    const signature = new Uint8Array(64).fill(7);
    const packed = timestampedSignature(TIME, signature);
    expect(packed).toHaveLength(72);
    expect(Buffer.from(packed.subarray(0, 8)).readBigUInt64BE()).toBe(BigInt(TIME));
    expect(parseTimestampedSignature(packed)).toEqual({ timestamp: TIME, signature });
    expect(parseTimestampedSignature(packed.subarray(1))).toBeNull();
    const far = new Uint8Array(packed);
    far[0] = 0x80;
    expect(parseTimestampedSignature(far)).toBeNull();
    expect(() => timestampedSignature(TIME, signature.subarray(1))).toThrow(/64 bytes/);
  });
});

describe('verifyCosignature', () => {
  const logPair = generateKeyPairSync('ed25519');
  const logPublic = new Uint8Array(Buffer.from(logPair.publicKey.export({ format: 'jwk' }).x!, 'base64url'));
  const logLine = async () => {
    const key = await parseVerifierKey(
      await formatVerifierKey('example.com/behind-the-sofa', logPublic, sha256),
      sha256,
    );
    const signature = Buffer.concat([key.keyId, sign(null, Buffer.from(TEXT), logPair.privateKey)]);
    return { key, line: `— example.com/behind-the-sofa ${signature.toString('base64')}\n` };
  };

  it("verifies the witness's line beside the log's, and the log's signature still verifies beside it", async () => {
    const witness = await parseCosignerKey(VKEY, sha256);
    const log = await logLine();
    const note = `${TEXT}\n${log.line}${handmadeLine(TEXT, TIME)}`;
    expect(await verifyCosignature(note, witness, webCryptoEd25519Verify)).toEqual({
      text: TEXT,
      timestamp: TIME,
    });
    expect(await verifySignedNote(note, log.key, webCryptoEd25519Verify)).toBe(TEXT);
    expect(signatureLinesOf(note, witness)).toEqual([handmadeLine(TEXT, TIME)]);
    expect(signatureLinesOf(note, log.key)).toEqual([log.line]);
  });

  it('says so when the witness did not cosign the note', async () => {
    const witness = await parseCosignerKey(VKEY, sha256);
    const log = await logLine();
    await expect(verifyCosignature(`${TEXT}\n${log.line}`, witness, webCryptoEd25519Verify)).rejects.toThrow(
      /no cosignature by the witness witness\.example\/w1\+/,
    );
    // Another key under the same name is not this witness (signed-note: name and id together).
    const other = generateKeyPairSync('ed25519').privateKey;
    const otherId = Buffer.from([1, 2, 3, 4]);
    await expect(
      verifyCosignature(
        `${TEXT}\n${handmadeLine(TEXT, TIME, other, otherId)}`,
        witness,
        webCryptoEd25519Verify,
      ),
    ).rejects.toThrow(/no cosignature/);
  });

  it('refuses a cosignature of another text, another time, or a plain Ed25519 signature under its key id', async () => {
    const witness = await parseCosignerKey(VKEY, sha256);
    const verify = (note: string) => verifyCosignature(note, witness, webCryptoEd25519Verify);
    const forkText = TEXT.replace('CsUY', 'DsUY');
    await expect(verify(`${forkText}\n${handmadeLine(TEXT, TIME)}`)).rejects.toThrow(/does not verify/);
    // The timestamp is signed: moving it breaks the signature.
    const line = handmadeLine(TEXT, TIME);
    const bytes = Buffer.from(line.slice(line.lastIndexOf(' ') + 1, -1), 'base64');
    bytes.writeBigUInt64BE(BigInt(TIME + 1), 4);
    await expect(verify(`${TEXT}\n— ${NAME} ${bytes.toString('base64')}\n`)).rejects.toThrow(
      /does not verify/,
    );
    // A signed-note Ed25519 signature of the text alone (no header, no time) is not a cosignature.
    const plain = Buffer.concat([expectedKeyId, sign(null, Buffer.from(TEXT), privateKey)]);
    await expect(verify(`${TEXT}\n— ${NAME} ${plain.toString('base64')}\n`)).rejects.toThrow(
      /does not verify/,
    );
    // A good line beside a bad one of the same key: the whole note is refused (C2SP signed-note).
    await expect(
      verify(`${TEXT}\n${handmadeLine(TEXT, TIME)}— ${NAME} ${bytes.toString('base64')}\n`),
    ).rejects.toThrow(/does not verify/);
  });
});
