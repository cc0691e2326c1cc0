import { describe, expect, it } from 'vitest';
import { analyzeStaleTables } from './analyze-stale.js';

/** A stand-in for the pool: tables with their last ANALYZE's row estimate and their rows now. */
function fakePool(tables: Record<string, { estimated: number; count: number }>) {
  const statements: string[] = [];
  const query = async (text: string) => {
    statements.push(text);
    if (text.includes('from pg_class'))
      return { rows: Object.entries(tables).map(([name, t]) => ({ name, estimated: t.estimated })) };
    const counted = /^select count\(\*\)::float8 as n from (\w+)$/.exec(text);
    if (counted) return { rows: [{ n: tables[counted[1]!]!.count }] };
    return { rows: [] };
  };
  return { pool: { query } as unknown as Parameters<typeof analyzeStaleTables>[0], statements };
}

describe('analyzeStaleTables', () => {
  it('analyzes a table never analyzed and one whose rows moved past 50 + 10 %, and no other', async () => {
    const { pool, statements } = fakePool({
      audit_log: { estimated: -1, count: 0 }, // never analyzed
      sessions: { estimated: 40, count: 85 }, // +45: under 50 + 4
      users: { estimated: 1_000, count: 1_200 }, // +200: over 50 + 100
      videos: { estimated: 100_000, count: 108_000 }, // +8,000: under 50 + 10,000
      purchases: { estimated: 5_000, count: 4_000 }, // -1,000: over 50 + 500
    });
    expect(await analyzeStaleTables(pool)).toEqual(['audit_log', 'users', 'purchases']);
    expect(statements.filter((s) => s.startsWith('analyze'))).toEqual([
      'analyze audit_log',
      'analyze users',
      'analyze purchases',
    ]);
  });

  it('analyzes nothing when every table is as its last ANALYZE left it', async () => {
    const { pool } = fakePool({
      videos: { estimated: 100_000, count: 100_000 },
      users: { estimated: 0, count: 0 },
    });
    expect(await analyzeStaleTables(pool)).toEqual([]);
  });
});
