// The witness as a bettors' community would run it: built as `npm run witness` builds it (tsc -p
// tsconfig.witness.json), then `node dist/witness/witness/main.js --listen … --key-file … --state-file …
// --log-key …`, its own process, its key and state in a folder of its own.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runBounded, spawnTracked } from '../../lib/procs.mjs';
import { root } from '../../lib/server.mjs';
import { freePort, tempDir } from '../../lib/util.mjs';

export const witnessMain = path.join(root, 'dist/witness/witness/main.js');

/** What `npm run witness` runs before the witness: its own build. */
export async function buildWitness(log) {
  log('building the witness (tsc -p tsconfig.witness.json, as npm run witness does)');
  const built = await runBounded(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.witness.json'], {
    cwd: root,
    timeoutMs: 300_000,
  });
  if (built.code !== 0) {
    const first = `${built.stdout}\n${built.stderr}`.split('\n').find((l) => /error/i.test(l)) ?? '';
    throw new Error(`the witness's build failed: ${first}`);
  }
  if (!existsSync(witnessMain)) throw new Error(`no witness at ${witnessMain}`);
}

/**
 * Starts one witness of `logKey`; resolves once it listens, with its verifier key (its first stdout line),
 * its URL, and a count of the checkpoints it reported cosigning or refusing.
 */
export async function startWitnessProcess({ name, logKey, deadlineMs = 30_000 }) {
  const dir = tempDir('pickreel-bench-witness-');
  const port = await freePort();
  const proc = spawnTracked(
    process.execPath,
    [
      witnessMain,
      '--listen',
      `127.0.0.1:${port}`,
      '--key-file',
      path.join(dir, 'key.pem'),
      '--state-file',
      path.join(dir, 'state.json'),
      '--log-key',
      logKey,
      '--name',
      name,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const witness = {
    name,
    dir,
    pid: proc.pid,
    url: `http://127.0.0.1:${port}`,
    verifierKey: null,
    cosigned: 0,
    refused: 0,
    stderr: '',
    stop: () => proc.stop({ graceMs: 5000 }),
  };
  let pending = '';
  // Every line is read (a full pipe would stall the witness); the first is its verifier key.
  proc.child.stdout.on('data', (chunk) => {
    pending += chunk;
    let at;
    while ((at = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, at);
      pending = pending.slice(at + 1);
      if (witness.verifierKey === null) witness.verifierKey = line;
      else if (/ cosigned /.test(line)) witness.cosigned += 1;
      else if (/ refused /.test(line)) witness.refused += 1;
    }
  });
  proc.child.stderr.on('data', (chunk) => (witness.stderr += chunk));
  const end = performance.now() + deadlineMs;
  while (!/listening on /.test(witness.stderr)) {
    const exited = await Promise.race([proc.exited, new Promise((r) => setTimeout(() => r(null), 50))]);
    if (exited) throw new Error(`the witness exited (${exited.code}): ${witness.stderr}`);
    if (performance.now() > end) {
      await witness.stop();
      throw new Error(`the witness did not listen within ${deadlineMs} ms: ${witness.stderr}`);
    }
  }
  return witness;
}
