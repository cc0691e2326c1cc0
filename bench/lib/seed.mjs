// The demo catalog grown to N videos (the built `seed:demo --total N`), and facts about it read straight from
// the database (how many videos a search term matches), both with the server stopped: the embedded database
// is one process's at a time.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runBounded } from './procs.mjs';
import { root } from './server.mjs';

const distServer = path.join(root, 'dist/node/server');

/** `seed:demo --total N` on the database `env` names (DATA_DIR, DATABASE_URL); { videos, seconds }. */
export async function seedDemo(log, env, total) {
  const started = performance.now();
  const out = await runBounded(
    process.execPath,
    ['--liftoff-only', path.join(distServer, 'scripts/seed-demo.js'), '--total', String(total)],
    { cwd: root, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, timeoutMs: 900_000 },
  );
  if (out.code !== 0) throw new Error(`seed:demo --total ${total} failed: ${out.stderr || out.stdout}`);
  const holds = /The catalog holds (\d+) videos/.exec(out.stdout);
  const seconds = (performance.now() - started) / 1000;
  log(`seeded ${holds?.[1] ?? '?'} videos in ${seconds.toFixed(1)} s`);
  if (Number(holds?.[1]) !== total) throw new Error(`seed:demo left ${holds?.[1]} videos, not ${total}`);
  return { videos: total, seconds };
}

// Runs in a child process with the server's own settings and database code (as seed:demo does), so the bench
// process neither loads PGlite nor holds the embedded database's lock afterwards.
const COUNT_SCRIPT = `
const { loadConfig } = await import(process.env.BENCH_CONFIG_URL);
const { openConfiguredDatabase } = await import(process.env.BENCH_CLIENT_URL);
const { terms, explain } = JSON.parse(process.env.BENCH_COUNT_INPUT);
const database = await openConfiguredDatabase(loadConfig());
const literal = (text) => "'" + text.replace(/'/g, "''") + "'";
// The catalog's own condition (videos-repository.ts): ready, and the text in the title, description or category.
const where = (term) => {
  const p = literal('%' + term.replace(/[\\\\%_]/g, (c) => '\\\\' + c) + '%');
  return "transcoding_status = 'ready' and (title ilike " + p + ' or description ilike ' + p + ' or category ilike ' + p + ')';
};
try {
  const counts = {};
  for (const term of terms) {
    const result = await database.db.execute('select count(*)::int as n from videos where ' + where(term));
    counts[term] = result.rows[0].n;
  }
  const plans = {};
  for (const term of explain) {
    const result = await database.db.execute(
      'explain select id from videos where ' + where(term) + ' order by created_at desc, id desc limit 24',
    );
    plans[term] = result.rows.map((row) => Object.values(row)[0]);
  }
  console.log('BENCH_COUNTS ' + JSON.stringify({ counts, plans }));
} finally {
  await database.close();
}
`;

/**
 * How many ready videos each term matches the way the catalog search does (ILIKE on title, description and
 * category), and the plan of the first page's query for the `explain` terms (which index serves it).
 */
export async function matchCounts(env, terms, explain = []) {
  const out = await runBounded(
    process.execPath,
    ['--liftoff-only', '--input-type=module', '-e', COUNT_SCRIPT],
    {
      cwd: root,
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        ...env,
        BENCH_CONFIG_URL: pathToFileURL(path.join(distServer, 'config.js')).href,
        BENCH_CLIENT_URL: pathToFileURL(path.join(distServer, 'db/client.js')).href,
        BENCH_COUNT_INPUT: JSON.stringify({ terms, explain }),
      },
      timeoutMs: 600_000,
    },
  );
  const line = /^BENCH_COUNTS (.*)$/m.exec(out.stdout);
  if (out.code !== 0 || !line) throw new Error(`counting matches failed: ${out.stderr || out.stdout}`);
  return JSON.parse(line[1]);
}
