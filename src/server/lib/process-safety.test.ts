import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from './package-root.js';

describe('logUnhandledRejections', () => {
  it('keeps the process alive and logs the rejection', () => {
    // A child process: Node's default (exit on an unhandled rejection) is what this guards against.
    const script = [
      `import { logUnhandledRejections } from ${JSON.stringify(path.join(packageRoot(), 'src/server/lib/process-safety.ts'))};`,
      'logUnhandledRejections({ error: (o, m) => console.log(m, o.err.message) });',
      "Promise.reject(new Error('sweep failed'));",
      "setTimeout(() => console.log('still serving'), 50);",
    ].join('\n');
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: packageRoot(),
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('unhandled promise rejection; the server goes on sweep failed');
    expect(result.stdout).toContain('still serving');
  });
});
