import { createHash, createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from './base64.js';
import {
  ed25519KeyId,
  formatCheckpoint,
  formatSignedNote,
  formatVerifierKey,
  isValidKeyName,
  MAX_NOTE_SIGNATURES,
  parseCheckpoint,
  parseSignedNote,
  parseVerifierKey,
  verifySignedNote,
  webCryptoEd25519Verify,
  webCryptoSha256,
  type VerifierKey,
} from './note.js';

const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

// golang.org/x/mod/sumdb/note note_test.go: the PeterNeumann and EnochRoot keys, the note and its signatures.
const PETER_KEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const PETER_PRIVATE = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const ENOCH_KEY = 'EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop';
const TEXT =
  "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const PETER_SIG =
  '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';
const ENOCH_SIG =
  '— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n';
// c2sp.org/tlog-checkpoint's example text.
const C2SP_CHECKPOINT =
  'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';

/** Node's Ed25519 private key from a 32-byte seed: the PKCS#8 header of RFC 8410, then the seed. */
function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  const header = Buffer.from('302e020100300506032b657004220420', 'hex');
  return createPrivateKey({ key: Buffer.concat([header, seed]), format: 'der', type: 'pkcs8' });
}

function newKeyPair(): { publicKey: Uint8Array; sign: (message: Uint8Array) => Uint8Array } {
  const pair = generateKeyPairSync('ed25519');
  const jwk = pair.publicKey.export({ format: 'jwk' });
  return {
    publicKey: new Uint8Array(Buffer.from(jwk.x!, 'base64url')),
    sign: (message) => new Uint8Array(sign(null, message, pair.privateKey)),
  };
}

describe('verifier keys', () => {
  it("parses Go's PeterNeumann key and writes it back the same", async () => {
    const key = await parseVerifierKey(PETER_KEY, sha256);
    expect(key.name).toBe('PeterNeumann');
    expect(Buffer.from(key.keyId).toString('hex')).toBe('c74f20a3');
    expect(key.publicKey).toHaveLength(32);
    expect(await formatVerifierKey(key.name, key.publicKey, sha256)).toBe(PETER_KEY);
    expect(await ed25519KeyId(key.name, key.publicKey, webCryptoSha256)).toEqual(key.keyId);
    expect(
      await formatVerifierKey('EnochRoot', (await parseVerifierKey(ENOCH_KEY, sha256)).publicKey, sha256),
    ).toBe(ENOCH_KEY);
  });

  it("refuses every substring and every one-character change of the key, as Go's TestNewVerifier does", async () => {
    const refused = async (text: string): Promise<boolean> =>
      parseVerifierKey(text, sha256).then(
        () => false,
        () => true,
      );
    for (let i = 0; i <= PETER_KEY.length; i++)
      for (let j = i + 1; j <= PETER_KEY.length; j++)
        if (i !== 0 || j !== PETER_KEY.length)
          expect(await refused(PETER_KEY.slice(i, j)), PETER_KEY.slice(i, j)).toBe(true);
    for (let i = 0; i < PETER_KEY.length; i++) {
      const changed =
        PETER_KEY.slice(0, i) + String.fromCharCode(PETER_KEY.charCodeAt(i) + 1) + PETER_KEY.slice(i + 1);
      expect(await refused(changed), changed).toBe(true);
    }
    // Go's: a wrong key length and an unknown algorithm, each with a matching key id.
    await expect(
      parseVerifierKey('PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==', sha256),
    ).rejects.toThrow(/verifier key/);
    await expect(
      parseVerifierKey('PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW', sha256),
    ).rejects.toThrow(/not an Ed25519 key/);
    await expect(
      parseVerifierKey('PeterNeumann+C74F20A3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW', sha256),
    ).rejects.toThrow(/lowercase/);
    await expect(
      parseVerifierKey('PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW', sha256),
    ).rejects.toThrow(/does not match/);
  });

  it("reads a key whose base64 holds '+'", async () => {
    const publicKey = new Uint8Array(32).fill(0xfb);
    const text = await formatVerifierKey('a.example/log', publicKey, sha256);
    expect(text.split('+').length).toBeGreaterThan(3);
    expect((await parseVerifierKey(text, sha256)).publicKey).toEqual(publicKey);
  });

  it('knows a valid key name', () => {
    for (const name of ['PeterNeumann', 'example.com/pick-log', 'localhost:3000/pick-log', 'é'])
      expect(isValidKeyName(name), name).toBe(true);
    for (const name of [
      '',
      'a b',
      'a+b',
      'a\tb',
      'a\nb',
      'a\u00a0b',
      'a\u2003b',
      'a\u0085b',
      'a\u0000b',
      '\ud800',
    ])
      expect(isValidKeyName(name), JSON.stringify(name)).toBe(false);
  });
});

describe('signed notes', () => {
  it("verifies Go's signed note with Web Crypto's Ed25519", async () => {
    const key = await parseVerifierKey(PETER_KEY, sha256);
    expect(await verifySignedNote(`${TEXT}\n${PETER_SIG}`, key, webCryptoEd25519Verify)).toBe(TEXT);
    const { text, signatures } = parseSignedNote(`${TEXT}\n${PETER_SIG}${ENOCH_SIG}`);
    expect(text).toBe(TEXT);
    expect(
      signatures.map((line) => [
        line.keyName,
        Buffer.from(line.keyId).toString('hex'),
        line.signature.length,
      ]),
    ).toEqual([
      ['PeterNeumann', 'c74f20a3', 64],
      ['EnochRoot', 'af0cfe78', 64],
    ]);
  });

  it("signs Go's note byte for byte from Go's private key (Ed25519 is deterministic)", async () => {
    const seed = fromBase64(PETER_PRIVATE.slice('PRIVATE+KEY+PeterNeumann+c74f20a3+'.length)).slice(1);
    const key = await parseVerifierKey(PETER_KEY, sha256);
    const signature = new Uint8Array(sign(null, utf8(TEXT), privateKeyFromSeed(seed)));
    expect(formatSignedNote(TEXT, [{ keyName: key.name, keyId: key.keyId, signature }])).toBe(
      `${TEXT}\n${PETER_SIG}`,
    );
  });

  it('ignores the lines of other keys, even with the same name or the same id, and needs one of its own', async () => {
    const peter = await parseVerifierKey(PETER_KEY, sha256);
    const enoch = await parseVerifierKey(ENOCH_KEY, sha256);
    const both = `${TEXT}\n${PETER_SIG}${ENOCH_SIG}`;
    expect(await verifySignedNote(both, peter, webCryptoEd25519Verify)).toBe(TEXT);
    expect(await verifySignedNote(both, enoch, webCryptoEd25519Verify)).toBe(TEXT);
    await expect(verifySignedNote(`${TEXT}\n${ENOCH_SIG}`, peter, webCryptoEd25519Verify)).rejects.toThrow(
      /no signature by the key PeterNeumann\+c74f20a3/,
    );
    // Go's: a broken EnochRoot line next to a good PeterNeumann one is another key's business.
    const brokenEnoch = `${ENOCH_SIG.slice(0, 60)}ABCD${ENOCH_SIG.slice(60)}`;
    const mixed = `${TEXT}\n${PETER_SIG}${PETER_SIG}${ENOCH_SIG}${ENOCH_SIG}${brokenEnoch}`;
    expect(await verifySignedNote(mixed, peter, webCryptoEd25519Verify)).toBe(TEXT);
    // Lines that share only the name or only the id with the key are unknown keys (C2SP signed-note).
    const signature = parseSignedNote(`${TEXT}\n${PETER_SIG}`).signatures[0]!.signature;
    const otherId = formatSignedNote(TEXT, [{ keyName: 'PeterNeumann', keyId: enoch.keyId, signature }]);
    const otherName = formatSignedNote(TEXT, [{ keyName: 'EnochRoot', keyId: peter.keyId, signature }]);
    for (const note of [otherId, otherName])
      await expect(verifySignedNote(note, peter, webCryptoEd25519Verify)).rejects.toThrow(
        /no signature by the key/,
      );
  });

  it('refuses a note whose signature by the key does not verify', async () => {
    const peter = await parseVerifierKey(PETER_KEY, sha256);
    const broken = `${TEXT}\n${PETER_SIG.slice(0, 60)}ABCD${PETER_SIG.slice(60)}`;
    await expect(verifySignedNote(broken, peter, webCryptoEd25519Verify)).rejects.toThrow(/does not verify/);
    const otherText = `${TEXT.replace('answer', 'question')}\n${PETER_SIG}`;
    await expect(verifySignedNote(otherText, peter, webCryptoEd25519Verify)).rejects.toThrow(
      /does not verify/,
    );
    // A good line does not excuse a bad one from the same key (C2SP: clients SHOULD reject the whole note).
    await expect(
      verifySignedNote(
        `${TEXT}\n${PETER_SIG}${broken.slice(TEXT.length + 1)}`,
        peter,
        webCryptoEd25519Verify,
      ),
    ).rejects.toThrow(/does not verify/);
  });

  it("refuses Go's malformed notes and more than 100 signatures", () => {
    const malformed = [
      TEXT,
      `${TEXT}\n`,
      `${TEXT}\n${PETER_SIG.slice(0, -1)}`,
      `\u0001${TEXT}\n${PETER_SIG}`,
      `${TEXT}\n— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=`,
      `${TEXT}\n${PETER_SIG}Unexpected line.\n`,
      `${TEXT}\n- PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`,
      `${TEXT}\n— PeterNeumann\n`,
      `${TEXT}\n— PeterNeumann AAAA\n`,
      `${TEXT}\r\n${PETER_SIG}`,
      `\ud800${TEXT}\n${PETER_SIG}`,
      `${TEXT}\n${PETER_SIG.repeat(MAX_NOTE_SIGNATURES + 1)}`,
    ];
    for (const note of malformed)
      expect(() => parseSignedNote(note), JSON.stringify(note)).toThrow(/^signed note/);
    expect(parseSignedNote(`${TEXT}\n${PETER_SIG.repeat(16)}`).signatures).toHaveLength(16);
    expect(parseSignedNote(`${TEXT}\n${PETER_SIG.repeat(MAX_NOTE_SIGNATURES)}`).signatures).toHaveLength(100);
  });

  it('splits at the last empty line: the text may hold empty lines', () => {
    const text = 'first\n\nthird\n';
    const note = formatSignedNote(text, [
      { keyName: 'k', keyId: new Uint8Array(4), signature: new Uint8Array(64) },
    ]);
    expect(parseSignedNote(note).text).toBe(text);
  });

  it('refuses to write a note that could not be read back', () => {
    const line = { keyName: 'k', keyId: new Uint8Array(4), signature: new Uint8Array(64) };
    expect(() => formatSignedNote('no newline', [line])).toThrow(/newline/);
    expect(() => formatSignedNote('a\tb\n', [line])).toThrow(/control/);
    expect(() => formatSignedNote('a\n', [])).toThrow(/no signature/);
    expect(() => formatSignedNote('a\n', [{ ...line, keyName: 'a b' }])).toThrow(/key name/);
    expect(() => formatSignedNote('a\n', [{ ...line, keyId: new Uint8Array(3) }])).toThrow(/4 bytes/);
  });
});

describe('checkpoints', () => {
  it("parses c2sp.org/tlog-checkpoint's example and writes it back the same", () => {
    const checkpoint = parseCheckpoint(C2SP_CHECKPOINT);
    expect(checkpoint.origin).toBe('example.com/behind-the-sofa');
    expect(checkpoint.size).toBe(20852163);
    expect(toBase64(checkpoint.rootHash)).toBe('CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=');
    expect(checkpoint.extensions).toEqual([]);
    expect(formatCheckpoint(checkpoint)).toBe(C2SP_CHECKPOINT);
    const extended = `${C2SP_CHECKPOINT}— an extension\nanother\n`;
    expect(parseCheckpoint(extended).extensions).toEqual(['— an extension', 'another']);
    expect(formatCheckpoint(parseCheckpoint(extended))).toBe(extended);
    expect(parseCheckpoint(`o\n0\n${toBase64(sha256(new Uint8Array(0)))}\n`).size).toBe(0);
  });

  it('refuses malformed checkpoints and says what is wrong', () => {
    const root = 'CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=';
    const cases: [string, RegExp][] = [
      [`o\n1\n${root}`, /does not end with a newline/],
      [`o\n1\n`, /fewer than three lines/],
      [`\n1\n${root}\n`, /origin line is empty/],
      [`o\n01\n${root}\n`, /tree size is not a decimal number/],
      [`o\n-1\n${root}\n`, /tree size is not a decimal number/],
      [`o\n1e3\n${root}\n`, /tree size is not a decimal number/],
      [`o\n 1\n${root}\n`, /tree size is not a decimal number/],
      [`o\n\n${root}\n`, /tree size is not a decimal number/],
      [`o\n99999999999999999999\n${root}\n`, /too large/],
      [`o\n1\n${root.slice(0, -1)}\n`, /not standard base64/],
      [`o\n1\n${toBase64(new Uint8Array(31))}\n`, /31 bytes/],
      [`o\n1\n${root}\n\n`, /extension line is empty/],
      [`o\n1\n${root}\r\n`, /control character/],
    ];
    for (const [text, message] of cases)
      expect(() => parseCheckpoint(text), JSON.stringify(text)).toThrow(message);
    const good = parseCheckpoint(C2SP_CHECKPOINT);
    expect(() => formatCheckpoint({ ...good, size: -1 })).toThrow(/tree size/);
    expect(() => formatCheckpoint({ ...good, size: 1.5 })).toThrow(/tree size/);
    expect(() => formatCheckpoint({ ...good, origin: 'a\nb' })).toThrow(/origin/);
    expect(() => formatCheckpoint({ ...good, rootHash: new Uint8Array(31) })).toThrow(/root hash/);
    expect(() => formatCheckpoint({ ...good, extensions: [''] })).toThrow(/extension/);
  });

  it('signs a checkpoint with a fresh key and verifies it through the published verifier key string', async () => {
    const pair = newKeyPair();
    const origin = 'picks.example/pick-log';
    const published = await formatVerifierKey(origin, pair.publicKey, sha256);
    expect(published).toMatch(/^picks\.example\/pick-log\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}$/);
    const key: VerifierKey = await parseVerifierKey(published, webCryptoSha256);
    const text = formatCheckpoint({ origin, size: 42, rootHash: sha256(utf8('root')), extensions: [] });
    const note = formatSignedNote(text, [
      { keyName: origin, keyId: key.keyId, signature: pair.sign(utf8(text)) },
    ]);
    expect(note.startsWith(`${text}\n— ${origin} `)).toBe(true);
    expect(parseCheckpoint(await verifySignedNote(note, key, webCryptoEd25519Verify)).size).toBe(42);
    const rewritten = note.replace('\n42\n', '\n43\n');
    await expect(verifySignedNote(rewritten, key, webCryptoEd25519Verify)).rejects.toThrow(/does not verify/);
    const stranger = await parseVerifierKey(
      await formatVerifierKey(origin, newKeyPair().publicKey, sha256),
      sha256,
    );
    await expect(verifySignedNote(note, stranger, webCryptoEd25519Verify)).rejects.toThrow(
      /no signature by the key/,
    );
  });
});

describe('Web Crypto', () => {
  it('hashes as node:crypto does and treats wrong Ed25519 lengths as a bad signature', async () => {
    for (const text of ['', 'abc', 'x'.repeat(1000)])
      expect(await webCryptoSha256(utf8(text))).toEqual(sha256(utf8(text)));
    const pair = newKeyPair();
    const message = utf8('m');
    const signature = pair.sign(message);
    expect(await webCryptoEd25519Verify(pair.publicKey, message, signature)).toBe(true);
    expect(await webCryptoEd25519Verify(pair.publicKey, utf8('n'), signature)).toBe(false);
    expect(await webCryptoEd25519Verify(pair.publicKey, message, signature.slice(1))).toBe(false);
    expect(await webCryptoEd25519Verify(pair.publicKey.slice(1), message, signature)).toBe(false);
  });
});
