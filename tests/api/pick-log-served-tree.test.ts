// The verifier checks what the real server serves about its tree (tiles, inclusion and consistency proofs)
// against the tree it builds from the entries: an insider who alters one stored node of `log_nodes` leaves
// the entries and the signed root as they were, but not the proofs and tiles read from that node.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { verifySite } from '#verifier/verify-site.js';
import { logSize, postMarketPick, settlePick, signedAll } from '../setup/pick-log-site.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { verificationFailure as failure } from '#verifier/testing/failure.js';

const BASE64 = '[A-Za-z0-9+/]{43}=';

let t: TestApp;
let site: string;
let size = 0;
const homes: string[] = [];

/** A verifier run by a new user of the verifier (its own remembered state). */
function verify() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'pickreel-served-api-'));
  homes.push(home);
  return verifySite(site, {}, { stateDir: home });
}


/** What an insider does with SQL: one stored node's hash replaced, the entries and checkpoints untouched. */
async function alterNode(level: number, index: number): Promise<void> {
  const updated = rowsOf<{ idx: string | number }>(
    await t.database.db.execute(
      sql`update log_nodes set hash = sha256(hash) where level = ${level} and idx = ${index} returning idx`,
    ),
  );
  expect(updated, `node ${level}:${index} exists`).toHaveLength(1);
  // The server keeps stored nodes in memory only from level 8 up (UpperNodes), which a log this small
  // has none of, and the checkpoint a quarter second: nothing it holds hides the change.
  await new Promise((resolve) => setTimeout(resolve, 300));
}

beforeAll(async () => {
  t = await createTestApp({ market: true });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  site = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const capper = await registerUser(t.app, {}, '10.17.0.1');
  const picks: number[] = [];
  for (let i = 0; i < 6; i++) picks.push(await postMarketPick(t, capper.cookie));
  await settlePick(t, picks[0]!, 3, 1);
  await settlePick(t, picks[1]!, 0, 2);
  await settlePick(t, picks[2]!, 2, 2);
  await settlePick(t, picks[3]!, 4, 1);
  await t.app.pickLog.flush(); // graded by direct calls: no request waited for the entries' numbers
  await signedAll(t, site);
  size = await logSize(t);
  await t.database.db.execute(sql.raw('create table log_nodes_honest as select * from log_nodes'));
});

afterEach(async () => {
  await t.database.db.execute(sql.raw('delete from log_nodes'));
  await t.database.db.execute(sql.raw('insert into log_nodes select * from log_nodes_honest'));
  await new Promise((resolve) => setTimeout(resolve, 300));
});

afterAll(async () => {
  await t?.close();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

describe('the verifier checks the tree the server serves, not only the entries', () => {
  it('passes the honest server, whose log has entries deep enough for a level-3 node', async () => {
    // Posts, grades and their games' outcomes: past 8 entries (a level-3 node and an entry right of it),
    // within 16, where the proofs below have the shape their messages name.
    expect(size).toBeGreaterThan(8);
    expect(size).toBeLessThanOrEqual(16);
    expect(await failure(verify())).toEqual({ kind: 'passed', message: '' });
  });

  it('catches an altered leaf hash (level 0): the tile that holds it, named with the hash', async () => {
    await alterNode(0, 3);
    const { kind, message } = await failure(verify());
    expect(kind).toBe('served');
    expect(message).toMatch(
      new RegExp(
        `^tile 0/000\\.p/${size} \\(level 0, index 0\\) differs from the log's entries at hash 3 \\(entry 3\\): the site serves ${BASE64}, the entries give ${BASE64}$`,
      ),
    );
    expect(message).not.toContain('\n');
  });

  it('catches an altered interior node of level 2: an inclusion proof that reads it', async () => {
    await alterNode(2, 1);
    const { kind, message } = await failure(verify());
    expect(kind).toBe('served');
    // Entries 0 to 3 have the node of entries 4–7 as a sibling; entry 0's proof is checked first. Its
    // siblings: entry 1, entries 2–3, 4–7, and 8 to the end.
    expect(message).toMatch(
      new RegExp(
        `^the site serves a wrong inclusion proof for entry 0 in a tree of ${size}: hash 3 of 4 \\(entries 4–7\\) is ${BASE64}, the log's entries give ${BASE64}$`,
      ),
    );
    expect(message).not.toContain('\n');
  });

  it('catches an altered interior node of level 3, which only the right-hand entries prove against', async () => {
    await alterNode(3, 0);
    const { kind, message } = await failure(verify());
    expect(kind).toBe('served');
    // Entry 8's proof: its path within entries 8 to the end, then the node of entries 0–7, last.
    const hashes = Math.ceil(Math.log2(size - 8)) + 1;
    expect(message).toMatch(
      new RegExp(
        `^the site serves a wrong inclusion proof for entry 8 in a tree of ${size}: hash ${hashes} of ${hashes} \\(entries 0–7\\) is ${BASE64}, the log's entries give ${BASE64}$`,
      ),
    );
    expect(message).not.toContain('\n');
  });

  it('passes again once the node is put back', async () => {
    expect(await failure(verify())).toEqual({ kind: 'passed', message: '' });
  });
});
