import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from './main.js';
import { STATE_FILE_NAME } from './state.js';
import { FakeSite, honestLog } from './testing/fake-site.js';

let home: string;
let site: FakeSite | null = null;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'pickreel-verify-main-'));
});
afterEach(async () => {
  await site?.stop();
  site = null;
  await rm(home, { recursive: true, force: true });
});

async function runWith(...argv: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const read = (stream: PassThrough) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    return () => Buffer.concat(chunks).toString('utf8');
  };
  const [out, err] = [read(stdout), read(stderr)];
  const code = await run(argv, { stdout, stderr, env: { PICKREEL_VERIFY_HOME: home } });
  return { code, stdout: out(), stderr: err() };
}

describe('npm run verify', () => {
  it('prints its usage with --help, and refuses a missing URL or an unknown option with status 2', async () => {
    expect(await runWith('--help')).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Usage: npm run verify -- <site URL>/),
    });
    expect(await runWith()).toMatchObject({ code: 2, stderr: expect.stringMatching(/^Give the site URL\./) });
    expect(await runWith('http://x.test', '--bogus')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--bogus/),
    });
    expect(await runWith('http://x.test', '--concurrency', '0')).toMatchObject({ code: 2 });
  });

  it('verifies an honest site: one summary line, exit 0, the state kept under PICKREEL_VERIFY_HOME', async () => {
    const log = await honestLog();
    site = await FakeSite.honest(log);

    // The fake site serves a profile, not the leaderboards and badges the real one does.
    const { code, stdout, stderr } = await runWith(site.url, '--capper', 'alice', '--skip-figures');

    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^alice\s+log\s+profile$/);
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^✓ ${site.url}: ${log.entries.length} entries, root [A-Za-z0-9+/]{43}=, signed by fake\\.test/pick-log; ` +
          `alice: 4-1-0, \\+2\\.2u, ROI 36\\.1%; 5 reveals match their commitments$`,
      ),
    );
    expect(stderr).toContain(`first use of ${site.url}: trusting its key fake.test/pick-log+`);
    expect(existsSync(path.join(home, STATE_FILE_NAME))).toBe(true);
  });

  it('fails with one line on stderr and exit 1, no stack trace', async () => {
    const log = await honestLog();
    site = await FakeSite.honest(log);
    site.state.served = log.bytes.reverse();

    const { code, stdout, stderr } = await runWith(site.url, '--quiet');

    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^✗ root mismatch: the entries served are not the tree the log signed .*\n$/);
    expect(stderr.split('\n')).toHaveLength(2);
  });

  it('says so when the site cannot be reached', async () => {
    const { code, stderr } = await runWith('http://127.0.0.1:9', '-q');
    expect(code).toBe(1);
    expect(stderr).toMatch(/^✗ GET http:\/\/127\.0\.0\.1:9\/api\/log\/key failed: .*\n$/);
  });
});
