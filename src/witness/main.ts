// `npm run witness -- --listen HOST:PORT --key-file FILE --state-file FILE --log-key "<log verifier key>"`:
// a C2SP tlog-witness for PickReel's pick log (docs/decisions/026). The first line on stdout is always the
// witness's verifier key, the string a site and a bettor's verifier are given; then one line per
// cosignature. Exit 2 on a usage error, 1 when it cannot start.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseListen, startWitness, type RunningWitness } from './server.js';

export const USAGE = `Usage: npm run witness -- --listen HOST:PORT --key-file FILE --state-file FILE --log-key "<log key>"

A witness (C2SP tlog-witness) for a PickReel pick log: it cosigns a checkpoint of the log only when the log's
key signed it and it extends the last checkpoint this witness cosigned for that log, so the log cannot show
two histories. Sites send it their checkpoints (PICK_LOG_WITNESSES); bettors require its cosignature with
npm run verify -- <site> --witness "<this witness's verifier key>".

Options:
  --listen HOST:PORT   where to serve POST /add-checkpoint (e.g. 127.0.0.1:7380)
  --key-file FILE      the witness's Ed25519 key (PKCS #8 PEM); made at the first start, mode 600
  --state-file FILE    the latest checkpoint cosigned per log, written to disk before each answer;
                       back it up with the key: a witness that forgets could cosign a fork
  --log-key KEY        a log to witness: its verifier key (GET /api/log/key on the site); repeatable
  --name NAME          the witness's key name, fixed at the first start (default <host name>/witness);
                       a schema-less URL such as witness.example.org/pickreel is best
  --help, -h           this text

The first line on stdout is the witness's verifier key; then one line per cosignature or refused fork.
Exit status: 1 when it cannot start, 2 on a usage error.`;

export interface WitnessIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Starts the witness; resolves with it running (or with an exit status when it could not start). */
export async function run(
  argv: readonly string[],
  io: WitnessIo,
): Promise<{ status: number } | { witness: RunningWitness }> {
  const out = (text: string) => io.stdout.write(`${text}\n`);
  const err = (text: string) => io.stderr.write(`${text}\n`);
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        listen: { type: 'string' },
        'key-file': { type: 'string' },
        'state-file': { type: 'string' },
        'log-key': { type: 'string', multiple: true },
        name: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    err(`${(error as Error).message}\n\n${USAGE}`);
    return { status: 2 };
  }
  if (values.help) {
    out(USAGE);
    return { status: 0 };
  }
  const missing = (['listen', 'key-file', 'state-file', 'log-key'] as const).filter((name) => !values[name]);
  if (missing.length) {
    err(`Give ${missing.map((name) => `--${name}`).join(', ')}.\n\n${USAGE}`);
    return { status: 2 };
  }
  const stamp = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  // The verifier key goes first, even if a request is answered the moment the port opens.
  let keyPrinted = false;
  const held: string[] = [];
  try {
    const witness = await startWitness({
      ...parseListen(values.listen!),
      keyFile: path.resolve(values['key-file']!),
      stateFile: path.resolve(values['state-file']!),
      logKeys: values['log-key']!,
      name: values.name,
      log: (line) => (keyPrinted ? out(`${stamp()} ${line}`) : held.push(`${stamp()} ${line}`)),
    });
    out(witness.verifierKey);
    keyPrinted = true;
    for (const line of held) out(line);
    if (witness.keyCreated) err(`made a new key in ${path.resolve(values['key-file']!)} (back it up)`);
    err(`witness ${witness.name} listening on ${witness.url} for ${witness.origins.join(', ')}`);
    return { witness };
  } catch (error) {
    // The start's own errors (a setting, the key, the state) say what to do; any other is one line too.
    err(`The witness cannot start: ${error instanceof Error ? error.message : String(error)}`);
    return { status: 1 };
  }
}

// Run when started as a program (node dist/witness/witness/main.js), not when a test imports it.
function startedAsProgram(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (startedAsProgram()) {
  const started = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
  if ('status' in started) process.exitCode = started.status;
  else {
    let closing = false;
    const stop = () => {
      if (closing) return;
      closing = true;
      started.witness.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }
}
