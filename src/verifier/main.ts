// `npm run verify -- <site URL> [--capper <username>]`: the command line around verifySite.
// Exit 0 when everything holds, 1 on the first failure (one message, no stack trace), 2 on a usage error.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { counted, formatUnits, formatWinLoss, formatPercent } from './record.js';
import { defaultStateDir, stateFile } from './state.js';
import { VerificationError, messageOf } from './verification-error.js';
import { MAX_PAGE, verifySite, type VerifyResult } from './verify-site.js';
import type { Fetch } from './http.js';

export const USAGE = `Usage: npm run verify -- <site URL> [options]

Checks a PickReel site's public pick log without trusting the site: the log's signature, that it extends
the checkpoint verified last time (trust on first use), every entry against the signed root, the log's
rules, every grade regraded from the revealed pick and the logged scores, and every record figure the site
serves (profiles, leaderboards, badges) recomputed from the log.

Options:
  --capper <username>  recompute this capper's record from the log and compare it with their profile;
                       check the reveal of each of their graded picks
  --key <verifier key> the log's key must be this one (replaces a remembered key the site changed)
  --witness <key>      require a recent cosignature of the checkpoint by this witness (its verifier key,
                       C2SP tlog-cosignature), also on a first run; repeatable
  --witnesses-needed <n>
                       how many of the --witness keys must have cosigned it (default: all of them)
  --witness-max-age <seconds>
                       an older cosignature does not count (default 3600)
  --reveals            check the reveal of every graded pick, not only the capper's
  --skip-figures       do not check the profiles, leaderboards and record badges the site serves
  --concurrency <n>    entries requests in flight at once (default 4)
  --quiet, -q          no progress bar and no remarks; only the result or the error
  --help, -h           this text

State: ~/.pickreel-verify/state.json (the folder is PICKREEL_VERIFY_HOME when set).
Exit status: 0 verified, 1 a check failed or the site could not be read, 2 a usage error.`;

export interface RunIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  fetch?: Fetch;
}

export async function run(argv: readonly string[], io: RunIo): Promise<number> {
  const out = (text: string) => io.stdout.write(text + '\n');
  const err = (text: string) => io.stderr.write(text + '\n');

  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        capper: { type: 'string' },
        key: { type: 'string' },
        witness: { type: 'string', multiple: true },
        'witnesses-needed': { type: 'string' },
        'witness-max-age': { type: 'string' },
        reveals: { type: 'boolean', default: false },
        'skip-figures': { type: 'boolean', default: false },
        concurrency: { type: 'string' },
        quiet: { type: 'boolean', short: 'q', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    err(`${messageOf(error)}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out(USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    err(`${positionals.length === 0 ? 'Give the site URL.' : 'Give one site URL.'}\n\n${USAGE}`);
    return 2;
  }
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (
    concurrency !== undefined &&
    !(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 64)
  ) {
    err('--concurrency takes a whole number from 1 to 64.');
    return 2;
  }
  const witnesses = values.witness ?? [];
  const wholeNumber = (name: 'witnesses-needed' | 'witness-max-age') =>
    values[name] === undefined ? undefined : /^[1-9][0-9]*$/.test(values[name]) ? Number(values[name]) : NaN;
  const witnessesNeeded = wholeNumber('witnesses-needed');
  if (witnessesNeeded !== undefined && !(witnessesNeeded <= witnesses.length)) {
    err(
      witnesses.length
        ? `--witnesses-needed takes a whole number from 1 to ${witnesses.length} (the --witness keys given).`
        : '--witnesses-needed needs the witnesses: --witness <key>.',
    );
    return 2;
  }
  const witnessMaxAge = wholeNumber('witness-max-age');
  if (Number.isNaN(witnessMaxAge)) {
    err('--witness-max-age takes a whole number of seconds.');
    return 2;
  }

  const bar = !values.quiet && io.stderr.isTTY ? progressBar(io.stderr) : null;
  const stateDir = defaultStateDir(io.env);
  try {
    const result = await verifySite(
      positionals[0]!,
      {
        capper: values.capper,
        key: values.key,
        reveals: values.reveals,
        figures: !values['skip-figures'],
        concurrency,
        pageSize: MAX_PAGE,
        witnesses,
        witnessesNeeded,
        witnessMaxAge,
      },
      {
        stateDir,
        fetch: io.fetch,
        progress: bar ? (done, total) => bar.update(done, total) : undefined,
        // The table goes out even when the record then fails: the reader sees which figure differs.
        print: (text) => {
          bar?.interrupt();
          out(text);
        },
        note: values.quiet
          ? undefined
          : (text) => {
              bar?.interrupt();
              err(text);
            },
      },
    );
    bar?.stop();
    if (!values.quiet) for (const remark of remarks(result, stateFile(stateDir))) err(remark);
    out(summary(result));
    return 0;
  } catch (error) {
    bar?.stop();
    if (error instanceof VerificationError) {
      err(`✗ ${error.message}`);
      return 1;
    }
    // Not a finding about the site but a fault here (a full disk, a bug): still one line, no stack.
    err(`✗ the verifier failed: ${messageOf(error)}`);
    return 1;
  }
}

/** '✓ https://x.example: 1,234 entries, root …, signed by x.example/pick-log; alice: 24-13-2, +24.7u, ROI 12.3%' */
export function summary(result: VerifyResult): string {
  let line = `✓ ${result.origin}: ${counted(result.size, 'entry', 'entries')}, root ${result.root}, signed by ${result.keyName}`;
  if (result.cosigners.length) line += `, cosigned by ${result.cosigners.join(', ')}`;
  if (result.capper) {
    const { username, log } = result.capper;
    line += `; ${username}: ${formatWinLoss(log)}, ${formatUnits(log.unitsWon)}, ROI ${formatPercent(log.roi)}`;
  }
  if (result.revealsChecked > 0)
    line += `; ${result.revealsChecked.toLocaleString('en-US')} ${result.revealsChecked === 1 ? 'reveal matches its commitment' : 'reveals match their commitments'}`;
  return line;
}

function remarks(result: VerifyResult, file: string): string[] {
  const { previous } = result;
  if (!previous) return [`remembered the key and this checkpoint in ${file}`];
  if (previous.size === result.size) return ['unchanged since the checkpoint verified last time'];
  return [`extends the checkpoint of ${counted(previous.size, 'entry', 'entries')} verified last time`];
}

interface ProgressBar {
  update(done: number, total: number): void;
  /** Clears the bar so a line can be written; the next update draws it again. */
  interrupt(): void;
  stop(): void;
}

/** A bar on the terminal for the download; drawn from the first update until stopped. */
function progressBar(stream: NodeJS.WritableStream): ProgressBar {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: 'entries {bar} {percentage}% | {value}/{total} | ETA {eta_formatted}',
      formatValue: (value, _options, type) =>
        type === 'value' || type === 'total' ? value.toLocaleString('en-US') : String(value),
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let state: 'new' | 'running' | 'stopped' = 'new';
  return {
    update(done, total) {
      if (state === 'stopped') return;
      if (state === 'new') {
        bar.start(total, done);
        state = 'running';
      } else bar.update(done);
    },
    interrupt() {
      if (state === 'running') bar.stop();
      if (state !== 'stopped') state = 'new';
    },
    stop() {
      if (state === 'running') bar.stop();
      state = 'stopped';
    },
  };
}

// Run when started as a program (node dist/verifier/verifier/main.js), not when a test imports it.
function startedAsProgram(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (startedAsProgram()) {
  process.exitCode = await run(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  });
}
