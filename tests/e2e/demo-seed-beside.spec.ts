// `npm run seed:demo` beside a running server started without SEED_DEMO adds what it adds on its own: the demo
// cappers' graded history included (it goes in through that server, which holds the database).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CapperProfile } from '#common/schemas/cappers.js';
import { packageRoot } from '#server/lib/package-root.js';
import { freePort } from '../setup/free-port';
import { expect, test } from './fixtures';

const root = packageRoot();
let server: ChildProcess | undefined;
let serverLog = '';
let dataDir: string;
let env: NodeJS.ProcessEnv;
let origin: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'pickreel-e2e-demo-beside-'));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  delete env.SEED_DEMO;
  const child = spawn(process.execPath, ['--liftoff-only', 'dist/node/server/main.js'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  child.stdout!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${serverLog}`);
        return (await fetch(`${origin}/api/health`).catch(() => null))?.status ?? 0;
      },
      { timeout: 150_000, intervals: [500] },
    )
    .toBe(200);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('seed:demo beside a running server adds the graded history, as it does on its own', async ({ page }) => {
  test.setTimeout(600_000);
  const seeded = spawnSync(
    process.execPath,
    ['--liftoff-only', path.join(root, 'dist/node/server/scripts/seed-demo.js')],
    { cwd: root, env, encoding: 'utf8', timeout: 540_000 },
  );
  expect(seeded.status, seeded.stderr).toBe(0);
  expect(seeded.stdout).toContain(`Seeding through the PickReel at ${origin}.`);
  expect(seeded.stdout).toMatch(/Demo history: \d+ picks posted, \d+ games settled, \d+ picks graded\./);

  // A new connection: the health checks' kept-alive one may have been closed by the server meanwhile.
  const profile = (await (
    await page.request.get(`${origin}/api/cappers/sharpshooter`)
  ).json()) as CapperProfile;
  // The history is self-reported (no market priced those games): graded, listed apart, never counted.
  expect(profile.selfReportedTotal).toBeGreaterThan(30);
  await page.goto(`${origin}/cappers/sharpshooter`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});
