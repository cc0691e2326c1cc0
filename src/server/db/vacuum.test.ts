import { afterEach, describe, expect, it, vi } from 'vitest';
import { vacuumLaggingTables, vacuumPeriodically } from './vacuum.js';

type Pool = Parameters<typeof vacuumLaggingTables>[0];

describe('vacuumLaggingTables', () => {
  it('vacuums the tables the catalog query names, with its bounds, and nothing else', async () => {
    const statements: { text: string; values?: unknown[] }[] = [];
    const pool = {
      query: async (text: string, values?: unknown[]) => {
        statements.push({ text, values });
        return text.includes('from pg_class')
          ? { rows: [{ name: 'videos' }, { name: 'video_views' }] }
          : { rows: [] };
      },
    } as unknown as Pool;
    expect(await vacuumLaggingTables(pool)).toEqual(['videos', 'video_views']);
    expect(statements[0]!.values).toEqual([100, 0.9]);
    expect(statements.slice(1).map((s) => s.text)).toEqual(['vacuum videos', 'vacuum video_views']);
  });
});

describe('vacuumPeriodically', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('vacuums the churning tables once a period, never two at once, and goes on after a failure', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let finish: (() => void) | undefined;
    let calls = 0;
    const pool = {
      query: (text: string) => {
        calls += 1;
        expect(text).toBe('vacuum videos, log_pending');
        if (calls === 1) return Promise.reject(new Error('disk full'));
        return new Promise<void>((resolve) => (finish = resolve));
      },
    } as unknown as Pool;
    const stop = vacuumPeriodically(pool, (error) => errors.push(error), 1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(1);
    expect(errors).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(3000); // the second is still running: no third
    expect(calls).toBe(2);
    finish!();
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(3);
    stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toBe(3);
  });
});
