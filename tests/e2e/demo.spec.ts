// A demo that looks real: a server started as the README says, with SEED_DEMO=true on a fresh DATA_DIR, seeds
// itself; its catalog shows the demo's own preview clips (no links to videos elsewhere), a clip plays
// inline, the home page's first page is mostly verified market picks with a few unverified ones, and no
// title gives its pick away. `seed:demo` beside that running server goes through it and adds nothing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Video } from '#common/schemas/videos.js';
import { demoVideos } from '#server/demo/demo-content.js';
import { packageRoot } from '#server/lib/package-root.js';
import { freePort } from '../setup/free-port';
import { expect, test } from './fixtures';

const root = packageRoot();
const demo = demoVideos();
const clip = demo[0]!;
/** What the server refuses in a pick's title or description: a side with its line or market. */
const GIVEAWAY = [/\b(ML|moneyline)\b/i, /\b(over|under)\s*\d/i, /[A-Za-z]\s+[+-]\d+(\.\d+)?\b/];

let server: ChildProcess | undefined;
let serverLog = '';
let dataDir: string;
let env: NodeJS.ProcessEnv;
let origin: string;

// One server and one seed for the file's tests, in this order.
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  // Making and processing the clips is minutes of ffmpeg on a busy machine.
  test.setTimeout(540_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'pickreel-e2e-demo-'));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  // What `npm start` runs once the build is fresh (`test:e2e` has just built it): its own staleness check is
  // left out, so that a source file touched meanwhile cannot start a rebuild under the shared server.
  const child = spawn(process.execPath, ['--liftoff-only', 'dist/node/server/main.js'], {
    cwd: root,
    env: { ...env, SEED_DEMO: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  child.stdout!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
  // The seed runs in the background after the server listens; it says when it is done.
  await expect
    .poll(
      () => {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${serverLog}`);
        if (serverLog.includes('demo seed failed')) throw new Error(`the demo seed failed:\n${serverLog}`);
        return serverLog.includes('Demo content ready');
      },
      { timeout: 480_000, intervals: [500] },
    )
    .toBe(true);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('the seeded demo shows its own clip picture on every card, and a demo clip plays inline', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto(`${origin}/`);
  const cards = page.getByTestId('video-card');
  // The server is still making and processing the market picks' clips: the first page may take a while.
  await expect(cards.first()).toBeVisible({ timeout: 30_000 });
  expect(await cards.count()).toBeGreaterThan(3);
  await expect(page.getByTestId('thumbnail-placeholder')).toHaveCount(0);
  for (const src of await cards
    .locator('img')
    .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src')))) {
    expect(src).toMatch(/^\/media\/videos\/\d+\/thumb\.jpg\?v=/);
  }

  await page.goto(`${origin}/videos?q=${encodeURIComponent(clip.title)}`);
  const card = page.getByRole('article', { name: clip.title });
  const picture = card.locator('img');
  await expect(picture).toHaveAttribute('src', /^\/media\/videos\/\d+\/thumb\.jpg\?v=/);
  await picture.scrollIntoViewIfNeeded();
  await expect
    .poll(() => picture.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBeGreaterThan(0);

  await card.getByRole('button', { name: `Play ${clip.title}` }).click();
  // The player's code is fetched on first use and the file is checked (HEAD) before its source is set: on a
  // busy machine that is seconds, so the waits below are longer than the default.
  const video = card.locator('video');
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 })
    .toBeGreaterThanOrEqual(2);
  expect(await video.getAttribute('src')).toMatch(/^\/media\/videos\/\d+\/video\.mp4\?v=/);
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0.5);
  await expect(card.getByText('Video Unavailable')).toHaveCount(0);
});

test('no demo video links elsewhere, no title gives its pick away, verified market picks come first', async ({
  page,
}) => {
  test.setTimeout(420_000);
  const catalog = async (query: string) =>
    (await (await fetch(`${origin}/api/videos?${query}`)).json()) as Video[];
  // Every demo video, the graded history's included: the demo's own processed clips, never a link.
  // Pages of the catalog's largest size (60).
  for (let offset = 0; ; offset += 60) {
    const page = await catalog(`limit=60&offset=${offset}`);
    for (const video of page) {
      expect(video.isExternalVideo, video.title).toBe(false);
      expect(video.externalVideoUrl ?? null, video.title).toBeNull();
      for (const text of [video.title, video.description])
        for (const rule of GIVEAWAY) expect(text, `${video.title}: ${String(rule)}`).not.toMatch(rule);
    }
    if (page.length < 60) break;
  }

  // The market picks are posted once the seed is done, and each clip is processed: the first page fills.
  await expect
    .poll(
      async () =>
        (await catalog('limit=24')).filter((video) => video.pick && !video.pick.selfReported).length,
      { timeout: 300_000, intervals: [2_000] },
    )
    .toBeGreaterThanOrEqual(13);

  await page.goto(`${origin}/`);
  const cards = page.getByTestId('video-card');
  await expect(cards.first()).toBeVisible({ timeout: 30_000 });
  const badges = await cards.getByTestId('pick-badge').allTextContents();
  const unverified = badges.filter((text) => text.includes('Unverified')).length;
  const sealed = badges.filter((text) => text.includes('Sealed')).length;
  expect(sealed).toBeGreaterThan(unverified);
  expect(unverified).toBeGreaterThan(0);
  // Verified first: the page opens on a sealed pick.
  expect(badges[0]).toContain('Sealed');
});

test('seed:demo beside the running server goes through it and adds nothing', () => {
  test.setTimeout(120_000);
  const script = path.join(root, 'dist/node/server/scripts/seed-demo.js');
  const seeded = spawnSync(process.execPath, ['--liftoff-only', script], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  expect(seeded.status, seeded.stderr).toBe(0);
  expect(seeded.stdout).toContain(`Seeding through the PickReel at ${origin}.`);
  expect(seeded.stdout).toContain(`all ${demo.length} demo videos are in the catalog already`);
  expect(seeded.stdout).toMatch(/0 new purchases/);
  // The graded history's step runs through the server too (it finds everything in place).
  expect(seeded.stdout).toContain('Demo history: all in place already.');

  // Bulk rows go straight into the database, which the server holds: refused with what to do.
  const bulk = spawnSync(process.execPath, ['--liftoff-only', script, '--total', '100'], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  expect(bulk.status).toBe(1);
  expect(bulk.stderr).toContain('stop the server first');
});
