// A second instance of the app on the first one's database, media and settings (several web
// instances on one PostgreSQL behave as one site). On PostgreSQL it opens a pool of its own, as another
// process would; the embedded database admits one process, so there the two apps share its one handle.
import { Writable } from 'node:stream';
import { buildApp } from '#server/app.js';
import { openDatabase } from '#server/db/client.js';
import type { AuthRateLimits } from '#server/features/auth/routes.js';
import type { TestApp } from './test-app.js';

export async function createSecondInstance(
  first: TestApp,
  options: { authRateLimits?: AuthRateLimits } = {},
): Promise<TestApp> {
  const ownDatabase = first.databaseUrl
    ? await openDatabase({ databaseUrl: first.databaseUrl, poolSize: 10 })
    : null;
  const database = ownDatabase ?? first.database;
  let logText = '';
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      logText += chunk.toString();
      callback();
    },
  });
  const app = await buildApp({
    config: first.config,
    database,
    logger: { level: 'info', stream },
    authRateLimits: options.authRateLimits,
    clientDir: null,
    checkResponses: true,
  });
  await app.ready();
  return {
    app,
    database,
    databaseUrl: first.databaseUrl,
    config: first.config,
    logs: () => logText,
    close: async () => {
      await app.close();
      await ownDatabase?.close();
    },
  };
}
