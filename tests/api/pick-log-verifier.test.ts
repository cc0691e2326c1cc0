// The independent verifier (src/verifier) against the real server, with the dishonest operator's tricks
// played on its database: a changed, deleted or reordered entry, a losing pick hidden from the
// profile, and a history rewritten and re-signed with the log's own key. The honest log passes.
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from '#server/db/drizzle.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { entryBytes, parseEntry, type PickEntry } from '#common/pick-log/entry.js';
import { appendNodes, leafHash, rangeNodes, rootFromFrontier } from '#common/pick-log/merkle.js';
import { formatCheckpoint, formatSignedNote, parseVerifierKey } from '#common/pick-log/note.js';
import { rowsOf } from '#server/db/rows.js';
import { setAdmin } from '#server/features/auth/users-repository.js';
import { forgetRecords } from '#server/features/cappers/index.js';
import { verifySite, type VerifyOptions } from '#verifier/verify-site.js';
import { logSize, postMarketPick, settlePick, signedAll } from '../setup/pick-log-site.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { verificationFailure } from '#verifier/testing/failure.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

let t: TestApp;
let site: string;
let capper: { cookie: string; id: number; username: string };
let losingPick: number;
let rivalId: number;
const homes: string[] = [];

/** A verifier run with its own remembered state (a new user of the verifier unless `home` is reused). */
function verify(options: VerifyOptions = {}, home = newHome()) {
  return verifySite(site, options, { stateDir: home });
}

function newHome(): string {
  const home = mkdtempSync(path.join(os.tmpdir(), 'pickreel-verify-api-'));
  homes.push(home);
  return home;
}

async function failureKind(run: Promise<unknown>): Promise<string> {
  return (await verificationFailure(run)).kind;
}

beforeAll(async () => {
  t = await createTestApp({ market: true });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  site = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  capper = await registerUser(t.app, {}, '10.16.0.1');
  const admin = await registerUser(t.app, {}, '10.16.0.2');
  await setAdmin(t.database.db, admin.id, true);
  const rival = await registerUser(t.app, {}, '10.16.0.3');
  rivalId = rival.id;
  const win = await postMarketPick(t, capper.cookie);
  losingPick = await postMarketPick(t, capper.cookie);
  const push = await postMarketPick(t, capper.cookie);
  await postMarketPick(t, capper.cookie); // open
  const rivals = await postMarketPick(t, rival.cookie);
  await settlePick(t, win, 3, 1);
  await settlePick(t, losingPick, 0, 2);
  await settlePick(t, push, 2, 2);
  await settlePick(t, rivals, 5, 0);
  await t.app.pickLog.flush(); // graded by direct calls: no request waited for the entries' numbers
  await signedAll(t, site);
  // The untouched tables (the latest checkpoint signed), to put back after each trick.
  for (const table of ['log_entries', 'log_nodes', 'log_checkpoints'])
    await t.database.db.execute(sql.raw(`create table ${table}_honest as select * from ${table}`));
});

afterEach(async () => {
  for (const table of ['log_entries', 'log_nodes', 'log_checkpoints']) {
    await t.database.db.execute(sql.raw(`delete from ${table}`));
    await t.database.db.execute(sql.raw(`insert into ${table} select * from ${table}_honest`));
  }
  await t.database.db.execute(sql`update picks set user_id = ${capper.id} where video_id = ${losingPick}`);
  forgetRecords(t.database.db);
  await new Promise((resolve) => setTimeout(resolve, 300)); // the checkpoint cache's quarter second
});

afterAll(async () => {
  await t?.close();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

describe('npm run verify against the real server', () => {
  it("passes an honest log, every reveal, and the capper's record as the profile shows it", async () => {
    const result = await verify({ capper: capper.username, reveals: true });
    expect(result.size).toBe(await logSize(t));
    expect(result.revealsChecked).toBe(4);
    expect(result.capper!.log).toMatchObject({ wins: 1, losses: 1, pushes: 1, graded: 3, unitsWon: 1 });
  });

  it('catches a changed entry (root)', async () => {
    const [row] = rowsOf<{ idx: string | number; bytes: Uint8Array }>(
      await t.database.db.execute(
        sql`select idx, bytes from log_entries where video_id = ${losingPick} and type = 'graded'`,
      ),
    );
    const entry = parseEntry(new Uint8Array(row!.bytes)) as PickEntry;
    const forged = entryBytes({ ...entry, result: 'win', unitsWon: 3 });
    await t.database.db.execute(
      sql`update log_entries set bytes = decode(${Buffer.from(forged).toString('hex')}, 'hex') where idx = ${row!.idx}`,
    );
    expect(await failureKind(verify({ capper: capper.username }))).toBe('root');
  });

  it('catches a deleted entry (root)', async () => {
    const [row] = rowsOf<{ idx: string | number }>(
      await t.database.db.execute(
        sql`select idx from log_entries where video_id = ${losingPick} and type = 'graded'`,
      ),
    );
    await t.database.db.execute(sql`delete from log_entries where idx = ${row!.idx}`);
    await t.database.db.execute(sql`update log_entries set idx = idx - 1 where idx > ${row!.idx}`);
    expect(await failureKind(verify())).toBe('root');
  });

  it('catches two entries reordered (root)', async () => {
    await t.database.db.execute(sql`update log_entries set idx = -1 where idx = 0`);
    await t.database.db.execute(sql`update log_entries set idx = 0 where idx = 1`);
    await t.database.db.execute(sql`update log_entries set idx = 1 where idx = -1`);
    expect(await failureKind(verify())).toBe('root');
  });

  it('catches a losing pick hidden from the profile (record)', async () => {
    // The operator files the loss under another account: the profile no longer counts it, its reveal still
    // answers (a moderation mark would make the reveal refuse, which the verifier also catches).
    await t.database.db.execute(sql`update picks set user_id = ${rivalId} where video_id = ${losingPick}`);
    forgetRecords(t.database.db);
    expect(await failureKind(verify({ capper: capper.username }))).toBe('record');
  });

  it('catches a history rewritten and re-signed with the same key (consistency), once a verifier has seen the log', async () => {
    const home = newHome();
    await verify({}, home); // a verifier remembers the honest checkpoint
    // The operator turns the loss into a win, rebuilds the whole tree and signs it with the log's own key.
    const rows = rowsOf<{ idx: string | number; bytes: Uint8Array }>(
      await t.database.db.execute(sql`select idx, bytes from log_entries order by idx`),
    );
    const entries = rows.map((row) => {
      const entry = parseEntry(new Uint8Array(row.bytes));
      return entry.type === 'graded' && entry.videoId === losingPick
        ? entryBytes({ ...entry, result: 'win', unitsWon: 3 })
        : entryBytes(entry);
    });
    const leaves = await Promise.all(entries.map((bytes) => leafHash(bytes, sha256)));
    const nodes = await appendNodes(0, [], leaves, sha256);
    await t.database.db.execute(sql`delete from log_nodes`);
    for (const [i, bytes] of entries.entries())
      await t.database.db.execute(
        sql`update log_entries set bytes = decode(${Buffer.from(bytes).toString('hex')}, 'hex') where idx = ${i}`,
      );
    for (const node of nodes)
      await t.database.db.execute(
        sql`insert into log_nodes (level, idx, hash) values (${node.level}, ${node.index}, decode(${Buffer.from(node.hash).toString('hex')}, 'hex'))`,
      );
    const size = entries.length;
    const frontier = rangeNodes(0, size).map(
      (id) => nodes.find((node) => node.level === id.level && node.index === id.index)!.hash,
    );
    const root = await rootFromFrontier(frontier, sha256);
    const key = await parseVerifierKey((await (await fetch(`${site}/api/log/key`)).text()).trim(), sha256);
    const origin = key.name;
    const privateKey = createPrivateKey(readFileSync(path.join(t.config.dataDir, 'pick-log-key.pem')));
    const text = formatCheckpoint({ origin, size, rootHash: root, extensions: [] });
    const note = formatSignedNote(text, [
      {
        keyName: origin,
        keyId: key.keyId,
        signature: new Uint8Array(sign(null, Buffer.from(text), privateKey)),
      },
    ]);
    await t.database.db.execute(sql`delete from log_checkpoints`);
    await t.database.db.execute(
      sql`insert into log_checkpoints (size, root, note) values (${size}, decode(${Buffer.from(root).toString('hex')}, 'hex'), ${note})`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A newcomer regrades the forged grade from the log's own evidence (the loss's logged score); a rewrite
    // that forged the scores too would pass a newcomer here, and only a witness catches it. The verifier
    // that saw the honest log catches it either way.
    expect(await failureKind(verify())).toBe('grade');
    expect(await failureKind(verify({}, home))).toBe('consistency');
    // Nor does the rewrite hide once the log grows: the server signs the next size over the forged tree.
    await postMarketPick(t, capper.cookie);
    await signedAll(t, site); // the post waited for its entry's number; the writer signs that size next
    expect(await failureKind(verify({}, home))).toBe('consistency');
  });
});
