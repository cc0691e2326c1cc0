import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  cosignatureLine,
  cosignerKeyId,
  formatCosignerKey,
  parseCheckpoint,
  type Checkpoint,
} from '../common/pick-log/index.js';
import { run } from './main.js';
import { VerificationError } from './verification-error.js';
import { checkCosignatures, witnessRequirement } from './witnesses.js';

const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());
const TEXT = 'pickreel.test/pick-log\n12\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';
const checkpoint: Checkpoint = parseCheckpoint(TEXT);
const NOW = Date.parse('2026-11-28T12:00:00Z');
const SECONDS = NOW / 1000;

async function makeWitness(name: string) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = new Uint8Array(Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url'));
  const keyId = await cosignerKeyId(name, raw, sha256);
  return {
    name,
    key: await formatCosignerKey(name, raw, sha256),
    line: (text: string, timestamp: number) =>
      cosignatureLine(text, { name, keyId }, timestamp, (message) => sign(null, message, privateKey)),
  };
}

const LOG_LINE =
  '— pickreel.test/pick-log AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n';

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof VerificationError) return `${error.kind}: ${error.message}`;
    throw error;
  }
  return 'passed';
}

describe('--witness requirements', () => {
  it('none by default; all the given witnesses needed unless told fewer', async () => {
    expect(await witnessRequirement({}, sha256)).toBeNull();
    const [a, b] = [await makeWitness('a.test/w'), await makeWitness('b.test/w')];
    const all = await witnessRequirement({ witnesses: [a.key, ` ${b.key} `] }, sha256);
    expect(all).toMatchObject({ needed: 2, maxAgeSeconds: 3600 });
    expect(all!.witnesses.map((w) => w.key.name)).toEqual(['a.test/w', 'b.test/w']);
    const one = await witnessRequirement(
      { witnesses: [a.key, b.key], witnessesNeeded: 1, witnessMaxAge: 60 },
      sha256,
    );
    expect(one).toMatchObject({ needed: 1, maxAgeSeconds: 60 });
  });

  it("refuses a key that is not a witness's, the same witness twice, and a quorum it cannot reach", async () => {
    const a = await makeWitness('a.test/w');
    const logKey = 'log.test+12345678+AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    expect(await failure(witnessRequirement({ witnesses: [logKey] }, sha256))).toMatch(
      /^witness: the witness key given with --witness .* is not a witness's key: .*0x04/,
    );
    expect(await failure(witnessRequirement({ witnesses: [a.key, a.key] }, sha256))).toMatch(/given twice/);
    expect(await failure(witnessRequirement({ witnesses: [a.key], witnessesNeeded: 2 }, sha256))).toMatch(
      /--witnesses-needed must be from 1 to the 1 witness keys given/,
    );
    expect(await failure(witnessRequirement({ witnessesNeeded: 1 }, sha256))).toMatch(/needs the witnesses/);
  });
});

describe('checkCosignatures', () => {
  it('counts each required witness whose recent cosignature of exactly this text verifies', async () => {
    const [a, b, c] = await Promise.all([
      makeWitness('a.test/w'),
      makeWitness('b.test/w'),
      makeWitness('c.test/w'),
    ]);
    const note = `${TEXT}\n${LOG_LINE}${await a.line(TEXT, SECONDS - 10)}${await b.line(TEXT, SECONDS - 20)}`;
    const both = await witnessRequirement({ witnesses: [a.key, b.key] }, sha256);
    expect(await checkCosignatures(note, checkpoint, both!, NOW)).toEqual(['a.test/w', 'b.test/w']);
    // c did not cosign: with two of three needed it passes, with three it fails naming c.
    const twoOfThree = await witnessRequirement(
      { witnesses: [a.key, b.key, c.key], witnessesNeeded: 2 },
      sha256,
    );
    expect(await checkCosignatures(note, checkpoint, twoOfThree!, NOW)).toEqual(['a.test/w', 'b.test/w']);
    const all = await witnessRequirement({ witnesses: [a.key, b.key, c.key] }, sha256);
    expect(await failure(checkCosignatures(note, checkpoint, all!, NOW))).toBe(
      'witness: the checkpoint of 12 entries is cosigned by 2 of the 3 witnesses needed (c.test/w: no cosignature)',
    );
  });

  it('a cosignature of another checkpoint, an old one, or one from the future does not count', async () => {
    const [a, b, c] = await Promise.all([
      makeWitness('a.test/w'),
      makeWitness('b.test/w'),
      makeWitness('c.test/w'),
    ]);
    const fork = TEXT.replace('\n12\n', '\n13\n');
    const note =
      `${TEXT}\n${LOG_LINE}${await a.line(fork, SECONDS)}` +
      `${await b.line(TEXT, SECONDS - 7200)}${await c.line(TEXT, SECONDS + 3600)}`;
    const requirement = await witnessRequirement(
      { witnesses: [a.key, b.key, c.key], witnessesNeeded: 1 },
      sha256,
    );
    const message = await failure(checkCosignatures(note, checkpoint, requirement!, NOW));
    expect(message).toMatch(
      /^witness: the checkpoint of 12 entries is cosigned by 0 of the 1 witnesses needed/,
    );
    expect(message).toContain('a.test/w: the cosignature does not verify');
    expect(message).toContain(
      'b.test/w: its cosignature is from 2026-11-28T10:00:00.000Z, older than 3600 s',
    );
    expect(message).toContain('c.test/w: its cosignature is dated 2026-11-28T13:00:00.000Z, in the future');
    // A longer --witness-max-age lets the older one count.
    const patient = await witnessRequirement({ witnesses: [b.key], witnessMaxAge: 10_000 }, sha256);
    expect(await checkCosignatures(note, checkpoint, patient!, NOW)).toEqual(['b.test/w']);
  });
});

describe('npm run verify --witness', () => {
  async function runWith(...argv: string[]) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const code = await run(argv, { stdout, stderr, env: {} });
    return { code, stdout: stdout.read()?.toString() ?? '', stderr: stderr.read()?.toString() ?? '' };
  }

  it('says how to use the options, and refuses a quorum or an age it cannot use (status 2)', async () => {
    const { code, stdout } = await runWith('--help');
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /--witness <key> .*\n.*also on a first run; repeatable\n {2}--witnesses-needed <n>/,
    );
    const a = await makeWitness('a.test/w');
    expect(await runWith('http://x.test', '--witnesses-needed', '1')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^--witnesses-needed needs the witnesses: --witness <key>\./),
    });
    expect(await runWith('http://x.test', '--witness', a.key, '--witnesses-needed', '2')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^--witnesses-needed takes a whole number from 1 to 1/),
    });
    expect(await runWith('http://x.test', '--witness', a.key, '--witnesses-needed', '0')).toMatchObject({
      code: 2,
    });
    expect(await runWith('http://x.test', '--witness', a.key, '--witness-max-age', 'soon')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^--witness-max-age takes a whole number of seconds/),
    });
  });
});
