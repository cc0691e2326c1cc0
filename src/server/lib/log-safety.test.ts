import { describe, expect, it } from 'vitest';
import { safeErrorMessage, serializeError } from './log-safety.js';

/** A DrizzleQueryError as drizzle makes it, with PostgreSQL's error as its cause. */
function failedQuery(secret: string) {
  const cause = Object.assign(
    new Error('new row for relation "payout_requests" violates check constraint "c"'),
    {
      code: '23514',
      severity: 'ERROR',
      constraint: 'c',
      table: 'payout_requests',
      detail: `Failing row contains (1, ${secret}).`,
      params: [secret],
      query: 'insert into payout_requests values ($1)',
    },
  );
  return Object.assign(
    new Error(`Failed query: insert into payout_requests values ($1)\nparams: ${secret}`),
    {
      query: 'insert into payout_requests values ($1)',
      params: [secret],
      cause,
    },
  );
}

describe('serializeError (logs never hold secrets)', () => {
  it('keeps the SQL, code and constraint of a failed query, never its parameters or detail', () => {
    const out = serializeError(failedQuery('SECRET-ACCOUNT'));
    const text = JSON.stringify(out);
    expect(text).not.toContain('SECRET-ACCOUNT');
    expect(text).not.toContain('Failing row');
    expect(out.message).toBe('Failed query: insert into payout_requests values ($1)');
    expect(out.sql).toBe('insert into payout_requests values ($1)');
    expect(out.stack).toMatch(/^Error: Failed query: insert into payout_requests values \(\$1\)\n\s+at /);
    expect(out.cause).toMatchObject({
      type: 'DatabaseError',
      code: '23514',
      constraint: 'c',
      table: 'payout_requests',
    });
  });

  it('hides the value a data error quotes, and the text a JSON parser quotes', () => {
    const dataError = Object.assign(new Error('invalid input syntax for type integer: "SECRET"'), {
      code: '22P02',
      severity: 'ERROR',
    });
    expect(safeErrorMessage(dataError)).toBe('invalid input syntax for type integer: "…"');
    let parseError: unknown;
    try {
      JSON.parse('{"password" "SECRET"}');
    } catch (error) {
      parseError = error;
    }
    expect(safeErrorMessage(parseError)).not.toContain('SECRET');
  });

  it('logs only the status of a thrown non-error', () => {
    const out = serializeError({ status_code: 500, body: 'SECRET body' } as unknown as Error);
    expect(JSON.stringify(out)).not.toContain('SECRET');
    expect(out.status).toBe(500);
  });
});
