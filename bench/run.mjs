// `npm run bench [-- <suite>...] [--quick]`: runs bench/suites/*.mjs (or the named ones), prints one table
// per suite and writes everything to bench/results/latest.json. See bench/README.md.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stopAll } from './lib/procs.mjs';
import { gitInfo, machineInfo, table } from './lib/report.mjs';
import { removeTempDirs } from './lib/util.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const suitesDir = path.join(benchDir, 'suites');
const available = readdirSync(suitesDir)
  .filter((f) => f.endsWith('.mjs'))
  .map((f) => f.replace(/\.mjs$/, ''))
  .sort();

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(
    [
      'usage: npm run bench [-- [suite...] [--quick] [--no-wait-quiet] [--rounds=N]]',
      `suites: ${available.join(', ')}`,
      '--quick: short runs to check that the bench works (figures not comparable)',
      '--no-wait-quiet: do not wait (up to 20 s per timed window) for other processes to calm down',
      '--rounds=N: repeat the load comparisons N times (1 to 9) and report medians: for a noisy machine',
    ].join('\n'),
  );
  process.exit(0);
}
const FLAGS = ['--quick', '--no-wait-quiet'];
const quick = args.includes('--quick');
const waitQuiet = !args.includes('--no-wait-quiet');
const roundsArg = args.find((a) => a.startsWith('--rounds='));
const rounds = roundsArg ? Number(roundsArg.slice('--rounds='.length)) : 1;
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 9) {
  console.error('bench: --rounds must be a whole number from 1 to 9');
  process.exit(2);
}
const unknownFlags = args.filter((a) => a.startsWith('-') && !FLAGS.includes(a) && a !== roundsArg);
const wanted = args.filter((a) => !a.startsWith('-'));
const missing = wanted.filter((w) => !available.includes(w));
if (unknownFlags.length || missing.length) {
  console.error(
    `bench: unknown ${[...unknownFlags, ...missing].join(', ')}; suites: ${available.join(', ')}`,
  );
  process.exit(2);
}
const selected = wanted.length ? wanted : available;

const log = (...parts) => console.log(...parts);
const report = {
  date: new Date().toISOString(),
  quick,
  waitQuiet,
  rounds,
  machine: machineInfo(),
  git: gitInfo(),
  suites: {},
};
log(`PickReel bench ${report.date}${quick ? ' (QUICK: figures not comparable)' : ''}`);
log(
  `machine: ${report.machine.cpus} x ${report.machine.cpuModel}, ${(report.machine.memoryBytes / 2 ** 30).toFixed(0)} GiB, ${report.machine.os}, node ${report.machine.node}`,
);
log(
  `git: ${report.git.commit?.slice(0, 12)} on ${report.git.branch}${report.git.dirtySources ? ` (+${report.git.dirtySources} uncommitted source changes)` : ''}`,
);

let failed = false;
for (const name of selected) {
  const { default: suite } = await import(pathToFileURL(path.join(suitesDir, `${name}.mjs`)).href);
  log(`\n== ${name}: ${suite.description ?? ''}`);
  const started = performance.now();
  const result = { rows: [], details: {}, notes: [] };
  try {
    await suite.run({ quick, waitQuiet, rounds, log: (...p) => log(' ', ...p), result });
  } catch (error) {
    failed = true;
    result.error = error.stack ?? String(error);
    log(`  suite ${name} FAILED: ${error.stack ?? error}`);
  } finally {
    await stopAll(); // whatever the suite left running
  }
  result.seconds = Math.round((performance.now() - started) / 100) / 10;
  report.suites[name] = result;
}

for (const [name, result] of Object.entries(report.suites)) {
  log(`\n${name} (${result.seconds} s)${result.error ? ' - suite failed, see above' : ''}`);
  if (result.rows.length) log(table(result.rows));
  for (const note of result.notes) log(`  * ${note}`);
}

const resultsDir = path.join(benchDir, 'results');
mkdirSync(resultsDir, { recursive: true });
const out = path.join(resultsDir, 'latest.json');
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
log(`\nwrote ${path.relative(process.cwd(), out)}`);
removeTempDirs();
// Exit explicitly: a handle a failed suite left open (a browser connection, a socket) must not hang the run.
process.exit(failed ? 1 : 0);
