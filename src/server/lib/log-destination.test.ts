import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { boundedLogDestination } from './log-destination';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A FIFO nobody reads yet: its write end fills after 64 KB, as a stalled log pipe does. */
function stalledPipe(): { writeFd: number; readAll: () => string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pickreel-log-'));
  const fifo = path.join(dir, 'log');
  execFileSync('mkfifo', [fifo]);
  // Read-write and non-blocking, so opening does not wait for a reader.
  const writeFd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
  const readFd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  cleanups.push(() => {
    closeSync(readFd);
    rmSync(dir, { recursive: true, force: true });
  });
  const chunk = Buffer.alloc(64 * 1024);
  let text = '';
  return {
    writeFd,
    readAll: () => {
      for (;;) {
        try {
          const n = readSync(readFd, chunk, 0, chunk.length, null);
          if (n === 0) return text;
          text += chunk.toString('utf8', 0, n);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return text;
          throw error;
        }
      }
    },
  };
}

interface Line {
  i?: number;
  level: number;
  dropped?: number;
  droppedSinceStart?: number;
}

describe('boundedLogDestination', () => {
  it('drops what does not fit while the reader is stalled, keeps the rest in order, and counts every drop', async () => {
    const pipe = stalledPipe();
    const destination = boundedLogDestination({
      fd: pipe.writeFd,
      maxBytes: 128 * 1024,
      reportAfterMs: 20,
      reportIntervalMs: 0,
    });
    const written = 2_000; // 2 MB: far more than the pipe (64 KB) and the buffer (128 KB) hold
    for (let i = 0; i < written; i++)
      destination.stream.write(`${JSON.stringify({ level: 30, i, msg: 'x'.repeat(1000) })}\n`);
    const dropped = destination.dropped();
    expect(dropped).toBeGreaterThan(written / 2);

    // The reader comes back: every line that was not dropped arrives, in order, then a report of the drops.
    let lines: Line[] = [];
    await expect
      .poll(
        () => {
          lines = pipe
            .readAll()
            .split('\n')
            .filter(Boolean)
            .map((text) => JSON.parse(text) as Line);
          return lines.at(-1)?.droppedSinceStart;
        },
        { timeout: 10_000 },
      )
      .toBe(dropped);
    const kept = lines.filter((line) => line.i !== undefined).map((line) => line.i!);
    expect(kept).toHaveLength(written - dropped);
    expect(kept).toEqual([...kept].sort((a, b) => a - b));
    const reports = lines.filter((line) => line.i === undefined);
    expect(reports.every((line) => line.level === 40)).toBe(true);
    expect(reports.reduce((sum, line) => sum + line.dropped!, 0)).toBe(dropped);
    destination.stream.end();
  });
});
