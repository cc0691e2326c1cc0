// Builds the real app on a fresh database for one API test file (conventions: 'Tests').
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '#server/app.js';
import { loadConfig, type Config, type Role } from '#server/config.js';
import { openDatabase, type Database } from '#server/db/client.js';
import type { AuthRateLimits } from '#server/features/auth/routes.js';
import type { PaymentProvider } from '#server/payments/provider.js';
import { startMarketStandIn, type MarketStandIn } from '#server/features/market/stand-in.js';
import type { ConnectionLimits } from '#server/plugins/connection-limits.js';
import { checkAgainstApiDocument } from './api-contract.js';
import { withAdminConnection } from './postgres.js';
import { testBucketEnv } from './stored-media.js';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /** The PostgreSQL database's URL (DATABASE_URL runs); undefined on the embedded one. */
  databaseUrl?: string;
  config: Config;
  /** Everything the app logged, as text. */
  logs: () => string;
  /** The market stand-in the app's market reads (`market: true`). */
  standIn?: MarketStandIn;
  close: () => Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  authRateLimits?: AuthRateLimits;
  paymentProvider?: PaymentProvider;
  /** A built client to serve; by default the API only. */
  clientDir?: string;
  connectionLimits?: Partial<ConnectionLimits>;
  /** ROLE: set here, since ROLE=web|worker in the settings asks for DATABASE_URL (config.ts). */
  role?: Role;
  /**
   * A market (docs/decisions/025) on a local stand-in of The Odds API the test controls: its leagues
   * (MARKET_LEAGUES), every major US league by default. Tests fetch what they need themselves
   * (tests/setup/market.ts) and tick it when they mean to: the app runs no timer of its own.
   */
  market?: boolean | { leagues?: string };
}

async function freshDatabase(): Promise<{ database: Database; url?: string; drop: () => Promise<void> }> {
  const template = inject('pgTemplate');
  const databaseUrl = process.env.DATABASE_URL;
  if (template && databaseUrl) {
    const name = `pickreel_t_${randomBytes(6).toString('hex')}`;
    await withAdminConnection(databaseUrl, (client) =>
      client.query(`create database ${name} template ${template}`),
    );
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 20 });
    return {
      database,
      url: url.toString(),
      drop: () =>
        withAdminConnection(databaseUrl, (client) =>
          client.query(`drop database if exists ${name} with (force)`),
        ).then(() => undefined),
    };
  }
  const dumpPath = inject('pgliteDumpPath');
  if (!dumpPath) throw new Error('api-global-setup did not run');
  const database = await openDatabase({ loadDataDir: new Blob([readFileSync(dumpPath)]) });
  return { database, drop: async () => {} };
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pickreel-test-'));
  const standIn = options.market ? await startMarketStandIn() : undefined;
  let config: Config;
  try {
    config = loadConfig({
      DATA_DIR: dataDir,
      SESSION_SECRET: 'test-secret-that-is-long-enough-0123456789',
      LOG_LEVEL: 'info',
      // TEST_MEDIA_STORAGE=s3: a bucket of its own on the suite's S3-compatible server.
      ...(await testBucketEnv()),
      ...(standIn && {
        ODDS_API_KEY: standIn.apiKey,
        ODDS_API_URL: standIn.url,
        ...(typeof options.market === 'object' &&
          options.market.leagues && { MARKET_LEAGUES: options.market.leagues }),
      }),
      ...options.env,
    });
  } catch (error) {
    await standIn?.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  if (options.role) config.role = options.role;
  const { database, url: databaseUrl, drop } = await freshDatabase();
  let logText = '';
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      logText += chunk.toString();
      callback();
    },
  });
  const app = await buildApp({
    config,
    database,
    logger: { level: 'info', stream },
    authRateLimits: options.authRateLimits,
    paymentProvider: options.paymentProvider,
    clientDir: options.clientDir ?? null,
    connectionLimits: options.connectionLimits,
    checkResponses: true,
    marketTicks: false,
  });
  checkAgainstApiDocument(app);
  await app.ready();
  return {
    app,
    database,
    databaseUrl,
    config,
    logs: () => logText,
    standIn,
    close: async () => {
      await app.close();
      await standIn?.close();
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The signed session cookie a response set, as `name=value` for the next request's Cookie header. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'pickreel_sid');
  if (!cookie) throw new Error(`no session cookie in response ${response.statusCode}: ${response.body}`);
  return `${cookie.name}=${cookie.value}`;
}

let counter = 0;
/** A username no other test in this file uses. */
export function uniqueUsername(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${process.pid}x${counter}`;
}

/** Registers a user and returns the Cookie header of their session. */
export async function registerUser(
  app: FastifyInstance,
  overrides: { username?: string; password?: string; phoneNumber?: string } = {},
  remoteAddress = '10.0.0.1',
): Promise<{ cookie: string; id: number; username: string; password: string }> {
  const username = overrides.username ?? uniqueUsername();
  const password = overrides.password ?? 'correct-horse';
  const response = await app.inject({
    method: 'POST',
    url: '/api/register',
    payload: { username, password, phoneNumber: overrides.phoneNumber ?? '5550100199' },
    remoteAddress,
  });
  if (response.statusCode !== 201)
    throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  return { cookie: sessionCookie(response), id: response.json<{ id: number }>().id, username, password };
}
