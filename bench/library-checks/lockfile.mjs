// proper-lockfile (its default 10 s staleness) against src/server/db/data-dir-lock.ts (as built): how long
// after its holder is killed (-9) another process takes the lock, and whether a paused holder (SIGSTOP) keeps
// it; decision 030. Usage, after `npm run build:server` (proper-lockfile must be installed):
//   node bench/library-checks/lockfile.mjs "$PWD/dist/node"
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [, script, dist, role, kind, dir] = process.argv;
const locks = {
  'proper-lockfile': async (d) => {
    const lockfile = (await import(`${process.cwd()}/node_modules/proper-lockfile/index.js`)).default;
    await lockfile.lock(d, { onCompromised: (e) => console.log('  holder compromised:', e.message) });
  },
  ours: async (d) => {
    const { lockDataDir } = await import(`${dist}/server/db/data-dir-lock.js`);
    await lockDataDir(d);
  },
};

if (role === 'hold') {
  await locks[kind](dir);
  process.send('locked');
  setInterval(() => {}, 1000);
} else {
  for (const k of Object.keys(locks)) {
    for (const signal of ['SIGKILL', 'SIGSTOP']) {
      const d = mkdtempSync(path.join(os.tmpdir(), 'lock-'));
      const child = spawn(process.execPath, [script, dist, 'hold', k, d], {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      await new Promise((r) => child.once('message', r));
      const t0 = Date.now();
      child.kill(signal);
      let got = false;
      while (!got && Date.now() - t0 < 15_000) {
        try {
          await locks[k](d);
          got = true;
        } catch {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      console.log(
        `${k}, holder ${signal}: ${got ? `taken after ${Date.now() - t0} ms` : 'still refused after 15 s'}`,
      );
      child.kill('SIGKILL');
    }
  }
  process.exit(0);
}
