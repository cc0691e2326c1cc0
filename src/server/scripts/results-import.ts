// `npm run results:import -- <file.json>`: settles events from a results feed document on disk
// (docs/results-feed.md), with the same settings as `npm start` (DATA_DIR / DATABASE_URL). Events already
// settled alike are skipped and conflicts are reported, never applied: a correction is an admin's.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openConfiguredDatabase } from '../db/client.js';
import { FileResultsProvider, runResultsImport } from '../features/picks/index.js';
import { safeErrorMessage } from '../lib/log-safety.js';

const USAGE = 'Usage: npm run results:import -- <file.json>';

async function main(): Promise<number> {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  const [file] = positionals;
  if (!file || positionals.length > 1) {
    console.error(USAGE);
    return 2;
  }
  const provider = new FileResultsProvider(file);
  // Read and checked before the database is opened: a bad file is reported whatever the server is doing.
  const document = await provider.fetchResults();
  const config = loadConfig();
  let database;
  try {
    database = await openConfiguredDatabase(config);
  } catch (error) {
    // The embedded database belongs to the running server: its admin Results tab imports the same file.
    if (error instanceof Error && /in use by another/.test(error.message))
      throw new Error(`${error.message} Or import the file from the admin dashboard's Results tab.`, {
        cause: error,
      });
    throw error;
  }
  try {
    await database.migrate();
    const summary = await runResultsImport(
      database.db,
      { name: provider.name, fetchResults: async () => document },
      { warn: (details, message) => console.warn(`${message} ${JSON.stringify(details)}`) },
    );
    const count = document.results.length;
    console.log(
      `Read ${count} result${count === 1 ? '' : 's'}: ${summary.settled} settled, ${summary.alreadySettled} already settled alike, ` +
        `${summary.unknown} unknown, ${summary.conflicts} conflicts (left for an admin to correct).`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('results:import failed:', safeErrorMessage(error));
    process.exit(1);
  },
);
