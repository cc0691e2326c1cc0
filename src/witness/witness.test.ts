import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toBase64 } from '../common/pick-log/base64.js';
import { parseCosignerKey, verifyCosignature } from '../common/pick-log/cosignature.js';
import { webCryptoEd25519Verify } from '../common/pick-log/note.js';
import { run } from './main.js';
import { MAX_BODY_BYTES, startWitness, type RunningWitness, type WitnessOptions } from './server.js';
import { TestLog } from './testing/test-log.js';

const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());
const ORIGIN = 'pickreel.test/pick-log';

let dir: string;
let log: TestLog;
let witness: RunningWitness | null;
let lines: string[];

function options(overrides: Partial<WitnessOptions> = {}): WitnessOptions {
  return {
    host: '127.0.0.1',
    port: 0,
    keyFile: path.join(dir, 'witness-key.pem'),
    stateFile: path.join(dir, 'witness-state.json'),
    logKeys: [log.verifierKey],
    name: 'witness.test/w1',
    log: (line) => lines.push(line),
    ...overrides,
  };
}

async function start(overrides: Partial<WitnessOptions> = {}): Promise<RunningWitness> {
  witness = await startWitness(options(overrides));
  return witness;
}

async function post(body: string | Uint8Array<ArrayBuffer>, target = witness!) {
  const response = await fetch(`${target.url}/add-checkpoint`, { method: 'POST', body });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

/** The witness's answer appended to the checkpoint, verified with its key as a client would. */
async function cosigned(note: string, answer: string, key = witness!.verifierKey) {
  return verifyCosignature(`${note}${answer}`, await parseCosignerKey(key, sha256), webCryptoEd25519Verify);
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pickreel-witness-'));
  log = await TestLog.create(ORIGIN);
  witness = null;
  lines = [];
});
afterEach(async () => {
  await witness?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('add-checkpoint (C2SP tlog-witness)', () => {
  it('cosigns a first checkpoint from old 0, then one that extends it with its consistency proof', async () => {
    await start();
    await log.append(5);
    const first = await post(await log.request(0));
    expect(first.status, first.body).toBe(200);
    expect(first.body).toMatch(/^— witness\.test\/w1 [A-Za-z0-9+/=]+\n$/);
    const { timestamp } = await cosigned(await log.checkpoint(), first.body);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(5);

    await log.append(8);
    const second = await post(await log.request(5));
    expect(second.status, second.body).toBe(200);
    await cosigned(await log.checkpoint(), second.body);
    // The same checkpoint again: consistent with itself, cosigned again.
    expect((await post(await log.request(13))).status).toBe(200);
    expect(lines.filter((line) => line.startsWith(`cosigned ${ORIGIN} size `))).toHaveLength(3);
  });

  it('answers 409 with text/x.tlog.size and its size when old is not the size it cosigned', async () => {
    await start();
    await log.append(4);
    expect((await post(await log.request(0))).status).toBe(200);
    await log.append(3);
    const conflict = await post(await log.request(2));
    expect(conflict).toEqual({ status: 409, type: 'text/x.tlog.size', body: '4\n' });
    const stale = await post(await log.request(0));
    expect(stale).toMatchObject({ status: 409, body: '4\n' });
    expect((await post(await log.request(4))).status).toBe(200);
  });

  it('refuses a fork: another root at the same size (422), a history that does not extend (422), a rollback (400/409)', async () => {
    await start();
    await log.append(6);
    expect((await post(await log.request(0))).status).toBe(200);
    // The same operator, the same key, another history.
    const fork = await TestLog.create(ORIGIN, log.privateKey);
    await fork.append(6);
    const sameSize = await post(await fork.request(6, 6, await fork.checkpoint()));
    expect(sameSize.status, sameSize.body).toBe(422);
    expect(sameSize.body).toMatch(/another root hash for size 6/);
    // A grown fork whose proof is honest about its own tree, but not from the witness's root.
    await fork.append(4);
    const grown = await post(await fork.request(6));
    expect(grown.status).toBe(422);
    expect(grown.body).toMatch(/does not verify/);
    // Sent as if new (old 0): the witness says what it has.
    expect(await post(await fork.request(0))).toMatchObject({ status: 409, body: '6\n' });
    // Rolled back: a smaller checkpoint than the witness cosigned.
    expect((await post(await log.request(6, 3))).status).toBe(400);
    expect((await post(await log.request(3, 3))).status).toBe(409);
    // The refusals of signed checkpoints are logged as evidence; the state did not move.
    expect(lines.filter((line) => line.startsWith(`refused ${ORIGIN} size `))).toHaveLength(2);
    const state = JSON.parse(await readFile(options().stateFile, 'utf8'));
    expect(state.logs[ORIGIN]).toMatchObject({ size: 6, root: toBase64(await log.root(6)) });
  });

  it('422 for a proof from old 0, for a size-0 checkpoint with another root, and for a wrong proof', async () => {
    await start();
    await log.append(3);
    const withProof = `old 0\n${toBase64(sha256(new Uint8Array([1])))}\n\n${await log.checkpoint()}`;
    expect((await post(withProof)).status).toBe(422);
    const empty = await post(
      await log.request(0, 0, await log.checkpoint(0, `${ORIGIN}\n0\n${toBase64(await log.root(3))}\n`)),
    );
    expect(empty.status).toBe(422);
    expect((await post(await log.request(0, 0))).status).toBe(200);
    expect((await post(await log.request(0, 3))).status).toBe(200);
    await log.append(2);
    const proof = await log.proof(3);
    proof[0] = sha256(proof[0]!);
    const tampered = `old 3\n${proof.map((h) => `${toBase64(h)}\n`).join('')}\n${await log.checkpoint()}`;
    expect((await post(tampered)).status).toBe(422);
    expect((await post(await log.request(3))).status).toBe(200);
  });

  it("404 for a log it does not witness, 403 for a checkpoint the log's key did not sign", async () => {
    await start();
    await log.append(2);
    const stranger = await TestLog.create('other.test/log');
    await stranger.append(2);
    expect((await post(await stranger.request(0))).status).toBe(404);
    // Same origin, another key: its line is ignored, so nothing the witness trusts signed it.
    const impostor = await TestLog.create(ORIGIN);
    await impostor.append(2);
    const unsigned = await post(await impostor.request(0));
    expect(unsigned.status).toBe(403);
    expect(unsigned.body).toMatch(/not signed by a key this witness trusts/);
    // The log's key name and id, but a signature over another text: a trusted line that fails.
    const good = await log.checkpoint();
    const forged = good.replace(await log.text(), await impostor.text());
    expect((await post(`old 0\n\n${forged}`)).status).toBe(403);
    // None of those moved the state.
    expect((await post(await log.request(0))).status).toBe(200);
  });

  it('400 for a body it cannot read, and only 4xx lines for requests it does not serve', async () => {
    await start();
    await log.append(3);
    const note = await log.checkpoint();
    const hash = toBase64(sha256(new Uint8Array()));
    for (const body of [
      note,
      `old 01\n\n${note}`,
      `old -1\n\n${note}`,
      `new 0\n\n${note}`,
      `old 0\nnot base64!\n\n${note}`,
      `old 0\n${toBase64(new Uint8Array(31))}\n\n${note}`,
      `old 3\n${`${hash}\n`.repeat(64)}\n${note}`,
      'old 0\n\nnot a note',
      `old 0\n\n${note.replace('\n3\n', '\nthree\n')}`,
      `old 4\n\n${note}`,
    ]) {
      const answer = await post(body);
      expect(answer.status, body).toBe(400);
      expect(answer.body).not.toMatch(/\n {4}at /);
    }
    expect((await post(new Uint8Array([0x6f, 0xff, 0x0a]))).status).toBe(400);
    expect((await post('x'.repeat(MAX_BODY_BYTES + 1))).status).toBe(413);
    const get = await fetch(`${witness!.url}/add-checkpoint`);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    const other = await fetch(`${witness!.url}/witness/v0/logs`);
    expect(other.status).toBe(404);
    expect(await other.text()).toMatch(/^not found: this witness answers POST \/add-checkpoint/);
  });

  it('serves the latest cosigned checkpoint of a log at /<origin hash>/checkpoint', async () => {
    await start();
    const hash = createHash('sha256').update(ORIGIN).digest('hex');
    expect((await fetch(`${witness!.url}/${hash}/checkpoint`)).status).toBe(404);
    await log.append(7);
    const answer = await post(await log.request(0));
    const served = await (await fetch(`${witness!.url}/${hash}/checkpoint`)).text();
    expect(served).toBe(`${await log.checkpoint()}${answer.body}`);
    await cosigned(served, '');
  });

  it('serializes concurrent requests for a log: one of many racing from the same old size is cosigned', async () => {
    await start();
    await log.append(10);
    expect((await post(await log.request(0, 10))).status).toBe(200);
    const forks = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const fork = await TestLog.create(ORIGIN, log.privateKey);
        return i === 0 ? log.append(5 + i) : fork.append(5 + i);
      }),
    );
    // Only the honest one extends the cosigned tree; the others are forks. All of them race at once.
    const bodies = await Promise.all(forks.map((fork, i) => (i === 0 ? fork.request(10) : fork.request(0))));
    const answers = await Promise.all(bodies.map((body) => post(body)));
    expect(answers.map((a) => a.status)).toEqual([200, ...Array(7).fill(409)]);
    // Growths racing from the same old size: whichever goes first wins, the others are told the new size.
    await log.append(2);
    const racing = await Promise.all(
      [log.request(15, 16), log.request(15, 17)].map(async (body) => post(await body)),
    );
    expect(racing.map((a) => a.status).sort()).toEqual([200, 409]);
  });
});

describe('the state file', () => {
  it('is written before the answer, and a restarted witness refuses a fork of what it cosigned', async () => {
    await start();
    const key = witness!.verifierKey;
    await log.append(9);
    expect((await post(await log.request(0))).status).toBe(200);
    const state = JSON.parse(await readFile(options().stateFile, 'utf8'));
    expect(state).toMatchObject({ version: 1, name: 'witness.test/w1', logs: { [ORIGIN]: { size: 9 } } });
    expect((await stat(options().stateFile)).mode & 0o777).toBe(0o600);
    expect((await stat(options().keyFile)).mode & 0o777).toBe(0o600);
    await witness!.close();

    await start({ name: undefined });
    expect(witness!.verifierKey).toBe(key);
    const fork = await TestLog.create(ORIGIN, log.privateKey);
    await fork.append(9);
    expect((await post(await fork.request(9))).status).toBe(422);
    expect((await post(await fork.request(0))).body).toBe('9\n');
    await log.append(1);
    expect((await post(await log.request(9))).status).toBe(200);
  });

  it('belongs to one witness at a time, and a damaged or renamed one stops the start', async () => {
    await start();
    await expect(startWitness(options())).rejects.toThrow(/another witness \(pid \d+\) uses the state file/);
    await witness!.close();
    witness = null;
    await expect(startWitness(options({ name: 'witness.test/w2' }))).rejects.toThrow(
      /this witness is named witness\.test\/w1/,
    );
    await writeFile(options().stateFile, '{"version":1,"name":"witness.test/w1","logs":{"x":{"size":-1}}}');
    await expect(startWitness(options())).rejects.toThrow(/is damaged .* could cosign a fork/);
    await writeFile(options().stateFile, '{');
    await expect(startWitness(options())).rejects.toThrow(/is damaged/);
  });

  it('refuses to start afresh with a key that has cosigned before but no state file', async () => {
    await start();
    await witness!.close();
    witness = null;
    await rm(options().stateFile);
    await expect(startWitness(options())).rejects.toThrow(
      /the key file .* exists but the state file .* does not.*could cosign a fork/,
    );
    // Another state file path is the same mistake.
    await expect(
      startWitness(options({ stateFile: path.join(dir, 'other-state.json') })),
    ).rejects.toThrow(/exists but the state file/);
  });
});

describe('npm run witness', () => {
  const io = () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const text = (stream: PassThrough) => () => stream.read()?.toString() ?? '';
    return { stdout, stderr, out: text(stdout), err: text(stderr) };
  };

  it('prints its verifier key as the first line, the same on every start', async () => {
    const args = [
      '--listen',
      '127.0.0.1:0',
      '--key-file',
      options().keyFile,
      '--state-file',
      options().stateFile,
      '--log-key',
      log.verifierKey,
      '--name',
      'witness.test/cli',
    ];
    const first = io();
    const started = await run(args, first);
    expect('witness' in started).toBe(true);
    if (!('witness' in started)) return;
    witness = started.witness;
    const [keyLine] = first.out().split('\n');
    expect(keyLine).toBe(started.witness.verifierKey);
    expect(keyLine).toMatch(/^witness\.test\/cli\+[0-9a-f]{8}\+B[A-Za-z0-9+/]{43}$/);
    expect(first.err()).toMatch(/made a new key/);
    await log.append(2);
    expect((await post(await log.request(0))).status).toBe(200);
    expect(first.out()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ cosigned pickreel\.test\/pick-log size 2 /);
    await started.witness.close();

    const again = io();
    const restarted = await run(args, again);
    if (!('witness' in restarted)) throw new Error('did not start again');
    witness = restarted.witness;
    expect(again.out().split('\n')[0]).toBe(keyLine);
  });

  it('exit 2 for usage errors, 1 with one line when it cannot start', async () => {
    const help = io();
    expect(await run(['--help'], help)).toEqual({ status: 0 });
    expect(help.out()).toMatch(/^Usage: npm run witness -- --listen HOST:PORT/);
    const missing = io();
    expect(await run(['--listen', '127.0.0.1:0'], missing)).toEqual({ status: 2 });
    expect(missing.err()).toMatch(/^Give --key-file, --state-file, --log-key\./);
    const bad = io();
    const args = ['--key-file', options().keyFile, '--state-file', options().stateFile];
    expect(await run(['--listen', 'nowhere', ...args, '--log-key', log.verifierKey], bad)).toEqual({
      status: 1,
    });
    expect(bad.err()).toMatch(/^The witness cannot start: --listen takes HOST:PORT/);
    const badKey = io();
    expect(await run(['--listen', '127.0.0.1:0', ...args, '--log-key', 'nonsense'], badKey)).toEqual({
      status: 1,
    });
    expect(badKey.err().trim().split('\n')).toHaveLength(1);
  });
});
