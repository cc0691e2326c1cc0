// Entry point: reads the settings, opens the database, migrates, builds the app, listens, starts the
// media jobs unless this is a web instance (ROLE, docs/decisions/023), and shuts down gracefully on
// SIGINT/SIGTERM.
import { buildApp, loggerOptions } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openConfiguredDatabase } from './db/client.js';
import { ensureAdmin } from './features/auth/index.js';
import { prepareDemoOnStart } from './demo/index.js';
import { safeErrorMessage } from './lib/log-safety.js';
import { logUnhandledRejections } from './lib/process-safety.js';
import { useMediaTools } from './media/ffmpeg.js';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`PickReel cannot start. ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  // The media jobs run the ffmpeg and ffprobe the settings named, checked just now.
  useMediaTools(config.mediaTools);

  const database = await openConfiguredDatabase(config);
  await database.migrate();
  if (config.admin) await ensureAdmin(database.db, config.admin);

  const app = await buildApp({ config, database, logger: loggerOptions(config.logLevel) });
  logUnhandledRejections(app.log);
  // The demo seed goes through this server's own HTTP API, which a worker does not serve.
  const offerDemo =
    config.role === 'worker'
      ? null
      : prepareDemoOnStart(app, {
          db: database.db,
          seedDemo: config.seedDemo,
          host: config.host,
          market: app.market !== null,
          dataDir: config.dataDir,
        });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    // The database closes after the app: fastify runs onClose hooks last-registered first, so a hook here
    // would close it before the job runner and the log writer had stopped using it.
    app
      .close()
      .then(() => database.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          app.log.error({ err }, 'error while shutting down');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  // A worker listens too, but answers only GET /api/health (a probe for its supervisor).
  app.jobs.start();
  app.log.info(
    {
      role: config.role,
      database: database.kind,
      dataDir: config.dataDir,
      payments: config.stripe ? 'stripe' : 'sandbox',
    },
    'PickReel is ready',
  );
  // The empty catalog's hint, or with SEED_DEMO the demo seed against this server, in the background.
  if (offerDemo) void offerDemo();
}

main().catch((error: unknown) => {
  // A failed query's message carries its parameters: only the safe part is printed.
  console.error('PickReel failed to start:', safeErrorMessage(error));
  process.exit(1);
});
