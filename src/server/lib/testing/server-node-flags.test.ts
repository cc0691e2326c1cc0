import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../package-root.js';
import { serverNodeFlags } from './server-node-flags.js';

// The flags are written out where a program cannot import them: `npm start` and the deployment's units.
describe("the server's Node flags", () => {
  const flags = async () => (await serverNodeFlags()).join(' ');

  it('npm start starts Node with them', async () => {
    const pkg = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe(`node ${await flags()} scripts/start.mjs`);
  });

  it('each deployment unit starts Node with them', async () => {
    const dir = path.join(packageRoot(), 'deploy');
    const units = readdirSync(dir).filter((name) => name.endsWith('.service'));
    expect(units.length).toBeGreaterThan(0);
    for (const unit of units) {
      const execStart = /^ExecStart=(.*)$/m.exec(readFileSync(path.join(dir, unit), 'utf8'))?.[1];
      expect(execStart, unit).toBe(`/usr/bin/node ${await flags()} dist/node/server/main.js`);
    }
  });
});
