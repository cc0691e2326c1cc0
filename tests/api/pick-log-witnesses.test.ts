// Witnesses (docs/decisions/026): two C2SP tlog-witnesses started in this process cosign the site's
// checkpoints; the checkpoint endpoint serves their cosignatures; the verifier requires them. A witness that
// is down delays nothing but its own cosignature. A fork, a restarted witness, a whole log rewritten with the
// site's own key and a rolled-back log are all refused by the witness and caught by a verifier that
// requires it, on its first run.
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from '#server/db/drizzle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase64 } from '#common/pick-log/base64.js';
import { parseCosignerKey, verifyCosignature } from '#common/pick-log/cosignature.js';
import {
  formatCheckpoint,
  formatSignedNote,
  parseCheckpoint,
  parseSignedNote,
  parseVerifierKey,
  verifySignedNote,
  webCryptoEd25519Verify,
} from '#common/pick-log/note.js';
import { rowsOf } from '#server/db/rows.js';
import { verifySite, type VerifyOptions } from '#verifier/verify-site.js';
import { startWitness, type RunningWitness } from '#witness/server.js';
import { TestLog } from '#witness/testing/test-log.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { postVideo, VALID_FIELDS } from '../setup/upload-requests.js';
import { waitFor } from '../setup/wait-for.js';
import { verificationFailure as failure } from '#verifier/testing/failure.js';

const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());
const ORIGIN = 'witnessed.pickreel.test/pick-log';

interface TestWitness {
  name: string;
  dir: string;
  port: number;
  lines: string[];
  running: RunningWitness | null;
  key: string;
}

let dir: string;
let keyFile: string;
let logKey: string;
let w1: TestWitness;
let w2: TestWitness;
let t: TestApp;
let site: string;
let capper: { cookie: string };
const homes: string[] = [];
let game = 0;

async function startTestWitness(witness: Omit<TestWitness, 'running' | 'key'>, port = 0) {
  const running = await startWitness({
    host: '127.0.0.1',
    port,
    keyFile: path.join(witness.dir, 'key.pem'),
    stateFile: path.join(witness.dir, 'state.json'),
    logKeys: [logKey],
    name: witness.name,
    log: (line) => witness.lines.push(line),
  });
  return { ...witness, port: Number(new URL(running.url).port), running, key: running.verifierKey };
}

async function restart(witness: TestWitness): Promise<TestWitness> {
  await witness.running?.close();
  const restarted = await startTestWitness(witness, witness.port);
  expect(restarted.key).toBe(witness.key);
  return restarted;
}

async function postPick(app = t, cookie = capper.cookie): Promise<void> {
  game += 1;
  const response = await postVideo(app.app, cookie, {
    ...VALID_FIELDS,
    isExternalVideo: 'true',
    externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    duration: '',
    legs: JSON.stringify([
      {
        league: 'NBA',
        home: `Home ${game}`,
        away: `Away ${game}`,
        startsAt: new Date(Date.now() + 48 * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        market: 'moneyline',
        side: `Home ${game}`,
        line: null,
        odds: -110,
        units: 1,
      },
    ]),
  });
  // 201 whatever the witnesses do: posting never waits for them.
  expect(response.statusCode, response.body).toBe(201);
}

async function logSize(app = t): Promise<number> {
  const [row] = rowsOf<{ size: string | number }>(
    await app.database.db.execute(sql`select size from log_state`),
  );
  return Number(row!.size);
}

async function checkpointNote(url = site): Promise<string> {
  return (await fetch(`${url}/api/log/checkpoint`)).text();
}

async function cosignedBy(note: string, witness: TestWitness): Promise<boolean> {
  try {
    await verifyCosignature(note, await parseCosignerKey(witness.key, sha256), webCryptoEd25519Verify);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the served checkpoint is of the log's size and carries these witnesses' cosignatures. */
async function cosignedNow(witnesses: TestWitness[], app = t, url = site): Promise<string> {
  const size = await logSize(app);
  return waitFor(
    `the checkpoint of ${size} entries cosigned by ${witnesses.map((w) => w.name).join(', ')}`,
    async () => {
      const note = await checkpointNote(url);
      if (parseCheckpoint(parseSignedNote(note).text).size !== size) return undefined;
      for (const witness of witnesses) if (!(await cosignedBy(note, witness))) return undefined;
      return note;
    },
    () => app.logs().split('\n').slice(-20).join('\n'),
  );
}

function newHome(): string {
  const home = mkdtempSync(path.join(os.tmpdir(), 'pickreel-verify-witness-'));
  homes.push(home);
  return home;
}

function verify(options: VerifyOptions, url = site, home = newHome()) {
  return verifySite(url, options, { stateDir: home });
}


/** POSTs an add-checkpoint body to a witness as a log would. */
async function submit(witness: TestWitness, body: string) {
  const response = await fetch(`${witness.running!.url}/add-checkpoint`, { method: 'POST', body });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

/** The site's key signs a checkpoint of `size` entries with another root: a fork, as the operator can. */
async function forkedCheckpoint(size: number): Promise<string> {
  const text = formatCheckpoint({
    origin: ORIGIN,
    size,
    rootHash: sha256(new Uint8Array([size])),
    extensions: [],
  });
  const signature = new Uint8Array(sign(null, Buffer.from(text), createPrivateKey(readFileSync(keyFile))));
  const { keyId } = await parseVerifierKey(logKey, sha256);
  return formatSignedNote(text, [{ keyName: ORIGIN, keyId, signature }]);
}

function stateOf(witness: TestWitness): { size: number; root: string } {
  return JSON.parse(readFileSync(path.join(witness.dir, 'state.json'), 'utf8')).logs[ORIGIN];
}

function siteEnv(witnesses: TestWitness[]): Record<string, string> {
  return {
    PICK_LOG_KEY_FILE: keyFile,
    PICK_LOG_ORIGIN: ORIGIN,
    PICK_LOG_WITNESSES: witnesses.map((w) => `${w.key}=http://127.0.0.1:${w.port}`).join(','),
  };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'pickreel-witnesses-'));
  // The log's key exists before the site starts, so the witnesses can be told it.
  const log = await TestLog.create(ORIGIN);
  keyFile = path.join(dir, 'pick-log-key.pem');
  writeFileSync(keyFile, log.privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  logKey = log.verifierKey;
  const witnessDir = (name: string) => mkdtempSync(path.join(dir, `${name}-`));
  w1 = await startTestWitness({
    name: 'w1.witness.test/pickreel',
    dir: witnessDir('w1'),
    port: 0,
    lines: [],
  });
  w2 = await startTestWitness({
    name: 'w2.witness.test/pickreel',
    dir: witnessDir('w2'),
    port: 0,
    lines: [],
  });
  t = await createTestApp({ env: siteEnv([w1, w2]) });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  site = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  capper = await registerUser(t.app, {}, '10.26.0.1');
  for (let i = 0; i < 3; i++) await postPick();
});

afterAll(async () => {
  await t?.close();
  await w1?.running?.close();
  await w2?.running?.close();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

describe('witnesses', () => {
  it("cosign each checkpoint; the endpoint serves their lines after the log's own, and the verifier requires them", async () => {
    const note = await cosignedNow([w1, w2]);
    const lines = note
      .slice(note.lastIndexOf('\n\n') + 2)
      .trimEnd()
      .split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^— ${ORIGIN} `));
    expect(
      lines
        .slice(1)
        .map((line) => line.split(' ')[1])
        .sort(),
    ).toEqual([w1.name, w2.name].sort());
    // The log's signature still verifies with the cosignatures beside it.
    await verifySignedNote(note, await parseVerifierKey(logKey, sha256), webCryptoEd25519Verify);
    // What each witness cosigned is what it remembers.
    const { size, rootHash } = parseCheckpoint(parseSignedNote(note).text);
    expect(stateOf(w1)).toMatchObject({ size, root: toBase64(rootHash) });

    const result = await verify({ witnesses: [w1.key, w2.key] });
    expect(result.size).toBe(size);
    expect(result.cosigners.sort()).toEqual([w1.name, w2.name].sort());
    expect((await verify({ witnesses: [w1.key, w2.key], witnessesNeeded: 2 })).size).toBe(size);
  });

  it('a witness that is down delays nothing but its own cosignature', { timeout: 60_000 }, async () => {
    await w2.running!.close();
    await postPick();
    await postPick();
    await cosignedNow([w1]);
    expect((await verify({ witnesses: [w1.key, w2.key], witnessesNeeded: 1 })).cosigners).toEqual([w1.name]);
    const missing = await failure(verify({ witnesses: [w1.key, w2.key] }));
    expect(missing.kind).toBe('witness');
    expect(missing.message).toMatch(/cosigned by 1 of the 2 witnesses needed/);
    expect(missing.message).toContain(w2.name);
    // Back up from its state file, it catches up with the checkpoints it missed.
    w2 = await restart(w2);
    await cosignedNow([w1, w2]);
  });

  it('the witness refuses a fork of the checkpoint it cosigned, also once restarted from its state file', async () => {
    const { size, root } = stateOf(w1);
    const fork = await forkedCheckpoint(size);
    const sameSize = await submit(w1, `old ${size}\n\n${fork}`);
    expect(sameSize.status).toBe(422);
    expect(sameSize.body).not.toMatch(/^—/m);
    expect(await submit(w1, `old 0\n\n${fork}`)).toEqual({
      status: 409,
      type: 'text/x.tlog.size',
      body: `${size}\n`,
    });
    w1 = await restart(w1);
    expect((await submit(w1, `old ${size}\n\n${fork}`)).status).toBe(422);
    expect(stateOf(w1)).toEqual(expect.objectContaining({ size, root }));
    // The honest log goes on being cosigned by the restarted witness.
    await postPick();
    await cosignedNow([w1, w2]);
  });

  it(
    "catches a whole log rewritten and signed with the site's own key, on a verifier's first run",
    { timeout: 90_000 },
    async () => {
      const witnessed = stateOf(w1).size;
      // The operator's second history: a fresh database, the same key file and origin, the same witness.
      const rewrite = await createTestApp({ env: siteEnv([w1]) });
      try {
        await rewrite.app.listen({ host: '127.0.0.1', port: 0 });
        const rewriteUrl = `http://127.0.0.1:${(rewrite.app.server.address() as AddressInfo).port}`;
        const rewriter = await registerUser(rewrite.app, {}, '10.26.0.9');
        // Longer than what the witness saw, so the site can send it a consistency proof: of another tree.
        while ((await logSize(rewrite)) <= witnessed + 1) await postPick(rewrite, rewriter.cookie);
        await waitFor(
          'the witness refusing the rewritten log',
          async () =>
            w1.lines.some((line) => line.startsWith(`refused ${ORIGIN} size `)) ? true : undefined,
          () => w1.lines.join('\n'),
        );
        const note = await checkpointNote(rewriteUrl);
        expect(await cosignedBy(note, w1)).toBe(false);
        // Trust on first use cannot tell the rewrite from the log...
        expect((await failure(verify({}, rewriteUrl))).kind).toBe('passed');
        // ...a verifier requiring the witness can, on its first run.
        const caught = await failure(verify({ witnesses: [w1.key] }, rewriteUrl));
        expect(caught.kind).toBe('witness');
        expect(caught.message).toContain(w1.name);
        expect(stateOf(w1).size).toBeGreaterThanOrEqual(witnessed);
      } finally {
        await rewrite.close();
      }
    },
  );

  it(
    'catches a rolled-back log: the witness refuses it, and a verifier requiring it fails',
    { timeout: 90_000 },
    async () => {
      await cosignedNow([w1, w2]);
      const remembered = newHome();
      await verify({ witnesses: [w1.key, w2.key] }, site, remembered);
      const witnessed = stateOf(w1).size;
      // The operator restores the log as it was two entries ago (a backup) and goes on from there.
      const back = witnessed - 2;
      const db = t.database.db;
      await db.execute(sql`delete from log_entries where idx >= ${back}`);
      await db.execute(sql`delete from log_nodes where (idx + 1) * power(2, level) > ${back}`);
      await db.execute(sql`delete from log_checkpoints where size > ${back}`);
      await db.execute(sql`update log_state set size = ${back}`);
      await t.app.pickLog.flush();
      // The rolled-back checkpoint itself: the witness says it has more.
      const rolled = await waitFor(
        'the rolled-back checkpoint',
        async () => {
          const note = await checkpointNote();
          return parseCheckpoint(parseSignedNote(note).text).size === back ? note : undefined;
        },
        () => t.logs(),
      );
      // (It may still carry the cosignatures of that size from before: the witnesses did see it then.)
      expect(await submit(w1, `old 0\n\n${rolled}`)).toMatchObject({ status: 409, body: `${witnessed}\n` });
      // Growing past it does not help: it is not an extension of what the witnesses saw.
      const refusedBefore = w1.lines.filter((line) => line.startsWith('refused')).length;
      while ((await logSize()) <= witnessed + 1) await postPick();
      await waitFor(
        'the witness refusing the rolled-back log',
        async () =>
          w1.lines.filter((line) => line.startsWith('refused')).length > refusedBefore ? true : undefined,
        () => w1.lines.join('\n'),
      );
      // What the site now serves, no witness cosigned: a verifier requiring them fails, whether it saw the
      // log before or never did. Trust on first use alone does not see it.
      const caught = await failure(verify({ witnesses: [w1.key, w2.key] }, site, remembered));
      expect(caught.kind).toBe('witness');
      expect(caught.message).toMatch(/cosigned by 0 of the 2 witnesses needed/);
      expect((await failure(verify({ witnesses: [w1.key] }))).kind).toBe('witness');
      expect((await failure(verify({}))).kind).toBe('passed');
    },
  );
});
