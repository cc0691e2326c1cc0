// The verifier against a fake site (testing/fake-site.ts): an honest log passes; the dishonest operator's
// tricks each fail with the kind of error that names them.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalBytes } from '../common/pick-seal.js';
import type { LogEntry, PickEntry } from '../common/pick-log/index.js';
import { FakeSite, HonestLog, honestLog, makeKey, signedCheckpoint } from './testing/fake-site.js';
import { VerificationError, type VerificationErrorKind } from './verification-error.js';
import { verifySite, type VerifyIo, type VerifyOptions } from './verify-site.js';
import { STATE_FILE_NAME } from './state.js';

let home: string;
const sites: FakeSite[] = [];

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'pickreel-verify-'));
});
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.stop()));
  await rm(home, { recursive: true, force: true });
});

async function siteOf(log: HonestLog): Promise<FakeSite> {
  const site = await FakeSite.honest(log);
  sites.push(site);
  return site;
}

function verify(site: FakeSite, options: VerifyOptions = {}, io: Partial<VerifyIo> = {}) {
  // The served figures (leaderboards, badges) are the real site's: tests/api check them there.
  return verifySite(site.url, { figures: false, ...options }, { stateDir: home, ...io });
}

async function failure(run: Promise<unknown>): Promise<VerificationError> {
  try {
    await run;
  } catch (error) {
    if (error instanceof VerificationError) return error;
    throw error;
  }
  throw new Error('verified, but the verifier should have refused');
}

async function expectFailure(run: Promise<unknown>, kind: VerificationErrorKind, message: RegExp) {
  const error = await failure(run);
  expect({ kind: error.kind, message: error.message }).toMatchObject({
    kind,
    message: expect.stringMatching(message),
  });
  return error;
}

/** The index of the first entry matching, in the honest log. */
function indexOf(log: HonestLog, match: (entry: LogEntry) => boolean): number {
  const index = log.entries.findIndex(match);
  if (index < 0) throw new Error('no such entry in the fixture');
  return index;
}

const aliceLoss = (entry: LogEntry) =>
  entry.type === 'graded' && 'capper' in entry && entry.capper === 'alice' && entry.result === 'loss';

describe('an honest log', () => {
  it("passes, and the capper's record recomputed from the log matches the profile", async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    const printed: string[] = [];

    const result = await verify(site, { capper: 'alice' }, { print: (text) => printed.push(text) });

    expect(result).toMatchObject({ size: log.entries.length, keyName: 'fake.test/pick-log', firstUse: true });
    expect(result.size).toBeGreaterThanOrEqual(45);
    // alice: win, win (corrected from a loss), win, loss (removed by her after grading: it stays), push
    // (removed by moderation: off the record), win.
    expect(result.capper?.log).toEqual({
      wins: 4,
      losses: 1,
      pushes: 0,
      voids: 0,
      graded: 5,
      picks: 5,
      unitsWon: 2.2,
      unitsRisked: 6.1,
      roi: 36.1,
      winPct: 80,
      clv: null,
    });
    expect(result.revealsChecked).toBe(5);
    expect(site.requests).not.toContain('/api/picks/104/reveal'); // moderated: answers 403, not asked
    expect(printed.join('\n')).toMatch(/^alice\s+log\s+profile\n/);
    expect(printed.join('\n')).not.toContain('✗');
  });

  it("passes for every capper, and --reveals checks every graded pick's commitment", async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    for (const capper of ['alice', 'bob', 'carol']) await verify(site, { capper });
    const everyReveal = await verify(site, { reveals: true });
    const revealed = [...log.picks.values()].filter((pick) => pick.grade && pick.removed !== 'moderation');
    expect(everyReveal.revealsChecked).toBe(revealed.length);
    expect(everyReveal.capper).toBeNull();
  });

  it('passes again once it grew: the new checkpoint is proved to extend the remembered one', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    const first = await verify(site);
    const id = await log.post('carol');
    log.grade(id, 'win');
    site.publish(log);

    const second = await verify(site, { capper: 'carol' });

    expect(second.previous).toEqual({ size: first.size, root: first.root });
    // Posted, the game's outcome, graded.
    expect(second.size).toBe(first.size + 3);
    expect(site.requests).toContain(`/api/log/proof/consistency?first=${first.size}&second=${second.size}`);
    const state = JSON.parse(await readFile(path.join(home, STATE_FILE_NAME), 'utf8'));
    expect(state.sites[new URL(site.url).origin].checkpoint).toEqual({
      size: second.size,
      root: second.root,
    });
  });

  it('a server that answers fewer entries than asked is followed from where it stopped, a page at a time', async () => {
    const log = new HonestLog();
    for (let i = 0; i < 1200; i++) {
      const id = await log.post(['alice', 'bob', 'carol'][i % 3]!);
      // A grade is two entries: the game's outcome, then the grade.
      if (i % 4 === 1) log.grade(id, i % 8 === 1 ? 'win' : 'loss');
    }
    const site = await siteOf(log);
    site.state.pageLimit = 300;
    const progress: [number, number][] = [];

    await verify(site, { concurrency: 3 }, { progress: (done, total) => progress.push([done, total]) });

    expect(log.entries.length).toBe(1800);
    // Windows of 1,000, each in pieces of 300 from where the last answer stopped.
    expect(progress).toEqual([
      [0, 1800],
      [1000, 1800],
      [1800, 1800],
    ]);
    const asked = site.requests.filter((request) => request.startsWith('/api/log/entries'));
    expect(asked.sort()).toEqual(
      [
        'start=0&end=1000',
        'start=300&end=1000',
        'start=600&end=1000',
        'start=900&end=1000',
        'start=1000&end=1800',
        'start=1300&end=1800',
        'start=1600&end=1800',
      ]
        .map((query) => `/api/log/entries?${query}`)
        .sort(),
    );
  });

  it('a smaller page size reports progress per page, each entry counted once', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    const progress: number[] = [];
    await verify(site, { pageSize: 10, concurrency: 2 }, { progress: (done) => progress.push(done) });
    const size = log.entries.length;
    const expected = [0];
    for (let done = 10; done < size; done += 10) expected.push(done);
    expected.push(size);
    expect(progress).toEqual(expected);
  });

  it('an empty log passes', async () => {
    const site = await siteOf(new HonestLog());
    const result = await verify(site, { capper: 'nobody' }).catch((error: unknown) => error);
    // No profile for an unknown capper: a clear 404, not a verified record.
    expect(result).toMatchObject({
      kind: 'network',
      message: expect.stringMatching(/answered 404.*Capper not found/),
    });
    expect(await verify(site)).toMatchObject({ size: 0, picks: 0 });
  });
});

describe('the dishonest operator', () => {
  it('changes a logged entry: root mismatch', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    const index = indexOf(log, aliceLoss);
    const served = log.bytes;
    served[index] = canonicalBytes({ ...log.entries[index], result: 'win', unitsWon: 1.82 });
    site.state.served = served;

    await expectFailure(
      verify(site, { capper: 'alice' }),
      'root',
      /^root mismatch: the entries served are not the tree the log signed/,
    );
  });

  it('deletes an entry (a losing grade) from what it serves: root mismatch', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    const index = indexOf(log, aliceLoss);
    site.state.served = log.bytes.filter((_, i) => i !== index);

    await expectFailure(verify(site), 'root', /^root mismatch/);
  });

  it('deletes an entry and re-signs the shorter log after the verifier saw it: consistency', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    await verify(site);
    const index = indexOf(log, aliceLoss);
    site.state.signed = log.bytes.filter((_, i) => i !== index);

    await expectFailure(
      verify(site),
      'consistency',
      /^the log was rewritten: it now has \d+ entries, it had \d+ entries/,
    );
  });

  it('reorders two entries: root mismatch', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    const served = log.bytes;
    [served[3], served[4]] = [served[4]!, served[3]!];
    site.state.served = served;

    await expectFailure(verify(site), 'root', /^root mismatch/);
  });

  it('rewrites history and re-signs it with the same key, same size: consistency', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    await verify(site);
    const index = indexOf(log, aliceLoss);
    const rewritten = log.bytes;
    rewritten[index] = canonicalBytes({ ...log.entries[index], result: 'win', unitsWon: 1.82 });
    site.state.signed = rewritten;

    await expectFailure(
      verify(site),
      'consistency',
      /^the log was rewritten: it still has \d+ entries, but their root is now/,
    );
  });

  it('rewrites history and re-signs it grown, with a proof from the new tree: consistency', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    const before = await verify(site);
    const index = indexOf(log, aliceLoss);
    log.entries[index] = { ...(log.entries[index] as PickEntry), result: 'win', unitsWon: 1.82 };
    await log.post('bob');
    site.publish(log);

    const error = await expectFailure(verify(site), 'consistency', /does not extend the one of/);
    expect(error.message).toContain(`${before.size} entries`);
    // Caught before any entry is fetched.
    expect(site.requests.filter((request) => request.startsWith('/api/log/entries')).length).toBe(
      Math.ceil(before.size / 1000),
    );
  });

  it('shrinks the log: consistency', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    await verify(site);
    site.state.signed = log.bytes.slice(0, 30);

    await expectFailure(verify(site), 'consistency', /^the log was rewritten: it now has 30 entries/);
  });

  it('serves a checkpoint signed by another key of the same name: signature', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    site.state.signer = makeKey('fake.test/pick-log');

    await expectFailure(
      verify(site),
      'signature',
      /^the checkpoint is not signed by the log's key fake\.test\/pick-log/,
    );
  });

  it("serves a checkpoint signed for another log's name: signature", async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    const other = makeKey('other.test/pick-log');
    site.state.checkpoint = signedCheckpoint(other, log.bytes);

    await expectFailure(verify(site), 'signature', /not signed by the log's key/);
  });

  it('names another log in a checkpoint its own key signed: signature', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    site.state.checkpoint = signedCheckpoint(site.state.signer, log.bytes, 'other.test/pick-log');

    await expectFailure(verify(site), 'signature', /names the log "other\.test\/pick-log"/);
  });

  it('changes its key after the verifier trusted the first one: key, until --key names the new one', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    await verify(site);
    const newKey = makeKey('fake.test/pick-log');
    site.state.signer = newKey;
    site.state.publishedKey = newKey.verifierKey;

    await expectFailure(verify(site), 'key', /^the log's key changed: .* run again with --key/);

    const accepted = await verify(site, { key: newKey.verifierKey });
    expect(accepted).toMatchObject({ firstUse: false, previous: { size: log.entries.length } });
    // Remembered: the next run needs no --key.
    await verify(site);
  });

  it('serves a reveal that does not hash to the logged commitment: reveal', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    const pick = [...log.picks.values()].find((candidate) => candidate.capper === 'bob' && candidate.grade)!;
    const sealed = { ...pick.sealed, legs: pick.sealed.legs.map((leg) => ({ ...leg, odds: 150 })) };
    site.state.reveals.set(pick.videoId, { sealed, commitment: pick.commitment });

    await expectFailure(
      verify(site, { capper: 'bob' }),
      'reveal',
      new RegExp(
        `^video ${pick.videoId}'s revealed pick hashes to [0-9a-f]{64}, but the log commits to ${pick.commitment}`,
      ),
    );
    // Another capper's reveals are not asked without --reveals.
    await verify(site, { capper: 'carol' });
    await expectFailure(verify(site, { reveals: true }), 'reveal', /revealed pick hashes to/);
  });

  it('refuses the reveal of a pick the log says is graded: reveal', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    const pick = [...log.picks.values()].find(
      (candidate) => candidate.capper === 'carol' && candidate.grade,
    )!;
    site.state.reveals.delete(pick.videoId);

    await expectFailure(
      verify(site, { capper: 'carol' }),
      'reveal',
      new RegExp(
        `^video ${pick.videoId} is graded in the log \\(entry \\d+\\), but its reveal is refused: .*403`,
      ),
    );
  });

  it('reveals the right pick but states another commitment beside it: reveal', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    const pick = [...log.picks.values()].find(
      (candidate) => candidate.capper === 'carol' && candidate.grade,
    )!;
    site.state.reveals.set(pick.videoId, { sealed: pick.sealed, commitment: 'ab'.repeat(32) });

    await expectFailure(
      verify(site, { capper: 'carol' }),
      'reveal',
      /^the site says video \d+'s commitment is (ab){32}, the log says/,
    );
  });

  it('hides a losing pick from the profile: record, naming each figure', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    site.state.profiles.set(
      'alice',
      log.profile('alice', (pick) => pick.grade?.result === 'loss'),
    );
    const printed: string[] = [];

    const error = await expectFailure(
      verify(site, { capper: 'alice' }, { print: (text) => printed.push(text) }),
      'record',
      /^alice's record: the profile claims 4 graded bets, the log has 5; the profile claims 4 graded picks, the log has 5; the profile lists 4 graded picks, the log has 5; the profile claims 0 losses, the log has 1; /,
    );
    expect(error.message).toContain('the profile claims 4.20u won, the log has 2.20u');
    expect(error.message).toContain('a win rate of 100.0%, the log has 80.0%');
    // The table is printed even so, the differing rows marked.
    expect(printed.join('\n')).toMatch(/^losses\s+1\s+0\s+✗$/m);
  });
});

describe('entries outside the log’s rules, though signed', () => {
  async function signedSite(entries: LogEntry[]): Promise<FakeSite> {
    const log = new HonestLog();
    const site = await siteOf(log);
    site.state.signed = entries.map((entry) => canonicalBytes(entry));
    return site;
  }

  it('a grade of a pick never posted: entry', async () => {
    const log = await honestLog();
    const entries = log.entries.filter((entry) => !(entry.type === 'posted' && entry.videoId === 101));
    await expectFailure(
      signedSite(entries).then(verify),
      'entry',
      /\(video 101\): revised before the pick was ever posted/,
    );
  });

  it('a grade under another commitment than the pick’s: entry', async () => {
    const log = await honestLog();
    const entries = log.entries.map((entry) =>
      aliceLoss(entry) ? { ...entry, commitment: 'cd'.repeat(32) } : entry,
    );
    await expectFailure(
      signedSite(entries).then(verify),
      'entry',
      /graded under commitment (cd){32}, but the pick's commitment is/,
    );
  });

  it('a pick posted twice, or by two cappers: entry', async () => {
    const log = await honestLog();
    const twice = [...log.entries, log.entries[0]!];
    await expectFailure(signedSite(twice).then(verify), 'entry', /posted again/);
    const stolen = log.entries.map((entry) => (aliceLoss(entry) ? { ...entry, capper: 'mallory' } : entry));
    await expectFailure(
      signedSite(stolen).then(verify),
      'entry',
      /logged for capper "mallory", but the pick was posted by/,
    );
  });

  it('an entry whose bytes are not its canonical form: entry', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    const bytes = log.bytes;
    bytes[5] = new TextEncoder().encode(JSON.stringify(log.entries[5], null, 1));
    site.state.signed = bytes;
    await expectFailure(verify(site), 'entry', /^entry 5 is not in RFC 8785 canonical form/);
  });
});

describe('--key and the remembered state', () => {
  it('the site must serve the key given, even on first use', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    const stranger = makeKey('fake.test/pick-log');
    await expectFailure(
      verify(site, { key: stranger.verifierKey }),
      'key',
      /^the log's key is .*, not the key given with --key/,
    );
    await expectFailure(
      verify(site, { key: 'not a key' }),
      'key',
      /^the key given with --key is not a verifier key/,
    );

    const result = await verify(site, { key: site.state.publishedKey });
    expect(result.firstUse).toBe(false);
    const state = JSON.parse(await readFile(path.join(home, STATE_FILE_NAME), 'utf8'));
    expect(state.sites[new URL(site.url).origin].key).toBe(site.state.publishedKey);
  });

  it('a damaged state file is an error, not a fresh trust on first use', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    await writeFile(path.join(home, STATE_FILE_NAME), '{"version":1,"sites":{"x":{"key":3}}}');
    await expectFailure(verify(site), 'key', /state\.json is damaged/);
  });

  it('a site that cannot be reached, or answers 500: network', async () => {
    const log = await honestLog();
    const site = await siteOf(log);
    site.state.failures.set('/api/log/checkpoint', 500);
    await expectFailure(
      verify(site),
      'network',
      /^GET \/api\/log\/checkpoint answered 500 Internal Server Error: Something went wrong/,
    );
    const url = site.url;
    await site.stop();
    await expectFailure(
      verifySite(url, {}, { stateDir: home }),
      'network',
      new RegExp(`^GET ${url}/api/log/key failed: `),
    );
  });
});

describe('grades against the log’s own evidence, though signed', () => {
  async function signedSite(entries: LogEntry[]): Promise<FakeSite> {
    const site = await siteOf(new HonestLog());
    site.state.signed = entries.map((entry) => canonicalBytes(entry));
    return site;
  }
  const isAliceLoss = (entry: LogEntry): entry is PickEntry => aliceLoss(entry);

  it('a loss logged as a win, its score logged as a loss: grade, naming the score', async () => {
    const log = await honestLog();
    const entries = log.entries.map((entry) =>
      isAliceLoss(entry)
        ? {
            ...entry,
            result: 'win' as const,
            unitsWon: 1,
            bets: { win: 1, loss: 0, push: 0, void: 0 },
            legs: entry.legs!.map((leg) => ({ ...leg, result: 'win' as const })),
          }
        : entry,
    );
    await expectFailure(
      signedSite(entries).then(verify),
      'grade',
      /^entry \d+ \(video \d+\): leg 1 \(Knicks at Celtics, moneyline Celtics at -120\) is graded win, but the score in entry \d+ \(final 100-110\) makes it a loss$/,
    );
  });

  it('units that do not follow from the odds: grade', async () => {
    const log = await honestLog();
    const entries = log.entries.map((entry) =>
      entry.type === 'graded' && 'result' in entry && entry.result === 'win' && entry.capper === 'carol'
        ? { ...entry, unitsWon: 5 }
        : entry,
    );
    await expectFailure(
      signedSite(entries).then(verify),
      'grade',
      /graded win \+5\.00u of 1u risked .*but its legs as logged grade it win \+0\.91u/,
    );
  });

  it('a game settled twice instead of corrected: entry', async () => {
    const log = await honestLog();
    const first = log.entries.findIndex((entry) => entry.type === 'settled');
    const entries = [...log.entries];
    entries.splice(first + 1, 0, { ...(log.entries[first] as LogEntry), at: '2026-03-05T00:00:00Z' });
    await expectFailure(
      signedSite(entries).then(verify),
      'entry',
      /settles a game already settled in entry \d+; a change of outcome is a corrected entry/,
    );
  });

  it('a counted grade without its evidence (format 1): grade, once the record is asked for', async () => {
    const log = await honestLog();
    const entries = log.entries.map((entry) => {
      if (!isAliceLoss(entry)) return entry;
      const { sealed: _sealed, legs: _legs, ...bare } = entry;
      return { ...bare, v: 1 as const };
    });
    // The site as it was (its reveals and profiles), serving the log with that one grade stripped.
    const site = await siteOf(log);
    site.state.signed = entries.map((entry) => canonicalBytes(entry));
    await expectFailure(
      verify(site, { capper: 'alice' }),
      'grade',
      /counts on alice's record, but does not carry the revealed pick and outcomes to regrade it$/,
    );
  });
});
