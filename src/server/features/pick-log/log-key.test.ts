import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newKeyFile } from './log-key.js';

const publicPem = (key: Parameters<typeof createPublicKey>[0]) =>
  createPublicKey(key).export({ format: 'pem', type: 'spki' }).toString();

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('newKeyFile', () => {
  it('keeps the first key when instances sharing the file make one at once', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'pickreel-log-key-'));
    const file = path.join(dir, 'keys', 'pick-log-key.pem');
    const first = newKeyFile(file);
    // A second instance that saw no file a moment ago: it gets the file's key, not an error or its own.
    const second = newKeyFile(file);
    expect(publicPem(second)).toBe(publicPem(first));
    expect(readdirSync(path.dirname(file))).toEqual(['pick-log-key.pem']);
  });
});
