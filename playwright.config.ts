import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, resolveChromiumPath } from './tests/setup/chromium';
import { E2E_ADMIN, E2E_MARKET, E2E_SUPPORT_PHONE, e2ePushServiceHosts } from './tests/setup/e2e-env';
import { freePort } from './tests/setup/free-port';

// The runner evaluates this file and so does every worker. The server is started once, by the runner, so
// its port and data directory are chosen there and handed to the workers through the environment.
const isRunner = process.env.TEST_WORKER_INDEX === undefined;
process.env.E2E_PORT ??= String(await freePort());
process.env.E2E_STAND_IN_PORT ??= String(await freePort());
// The push service stand-in listens here, in the push test's own process (tests/e2e/push.spec.ts).
process.env.E2E_PUSH_PORT ??= String(await freePort());
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'pickreel-e2e-'));
process.env.E2E_CHROMIUM_PATH ??= await resolveChromiumPath();

const port = Number(process.env.E2E_PORT);
const standInPort = Number(process.env.E2E_STAND_IN_PORT);
const dataDir = process.env.E2E_DATA_DIR;
const baseURL = `http://127.0.0.1:${port}`;

if (isRunner) {
  // The web server has been stopped by the time the runner exits; its database goes with it.
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 2,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL,
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: process.env.E2E_CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: [
    {
      // The market (docs/decisions/025): a local stand-in of The Odds API v4 the tests add games to.
      command: 'node scripts/market-stand-in.mjs',
      port: standInPort,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { STAND_IN_PORT: String(standInPort), STAND_IN_KEY: E2E_MARKET.key },
    },
    {
      // Started as users start it (README): `npm run test:e2e` has just built dist/.
      command: 'npm start',
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'pipe',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_USERNAME: E2E_ADMIN.username,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        SUPPORT_PHONE: E2E_SUPPORT_PHONE,
        // Every test presents its own client address (X-Forwarded-For), as real visitors would, so the
        // per-IP sign-in rate limit applies per test instead of to the whole suite at once.
        TRUST_PROXY: 'true',
        LOG_LEVEL: 'warn',
        // NFL and MLB on the market; the other leagues' legs stay self-reported, as on a site that follows few.
        ODDS_API_KEY: E2E_MARKET.key,
        ODDS_API_URL: `http://127.0.0.1:${standInPort}`,
        MARKET_LEAGUES: E2E_MARKET.leagues,
        MARKET_REFRESH_SECONDS: '5',
        PUSH_SERVICE_HOSTS: e2ePushServiceHosts(Number(process.env.E2E_PUSH_PORT)),
      },
    },
  ],
});
