// What an error may put in the log: logs never hold secrets, whatever fails.
//
// A failed query would log its parameters: drizzle's DrizzleQueryError says "Failed query: <sql>\nparams:
// <values>" and carries `params`; PGlite's errors carry `params` too; PostgreSQL's `detail` repeats the row
// ("Failing row contains (…)", "Key (…)=(…)"), and its data errors quote the value they refused. Those values
// are argon2 hashes, winning selections, payout account details. The serializer below keeps what tells a
// reader where and why (type, the SQL text, PostgreSQL's code, constraint, table, column, the stack's
// frames, the cause chain) and drops everything else an error carries.

/** Properties copied as they are: codes and names, never values. */
const SAFE_FIELDS = [
  'code',
  'statusCode',
  'severity',
  'constraint',
  'table',
  'column',
  'schema',
  'dataType',
  'routine',
  'errno',
  'syscall',
  'path',
  'dest',
  'signal',
] as const;

interface ErrorLike {
  message: string;
  name?: unknown;
  stack?: unknown;
  cause?: unknown;
  [key: string]: unknown;
}

export interface SerializedError {
  type: string;
  message: string;
  stack?: string;
  cause?: SerializedError;
  [key: string]: unknown;
}

function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === 'object' && value !== null && typeof (value as ErrorLike).message === 'string';
}

const QUOTED = /"(?:[^"\\]|\\.)*"/g;

/** PostgreSQL's SQLSTATE: five characters, digits and capitals. */
const isSqlState = (code: unknown): code is string => typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);

/** The message without any value it may quote. */
export function safeErrorMessage(err: unknown): string {
  if (!isErrorLike(err)) return 'A value that is not an Error was thrown.';
  let message = err.message;
  // drizzle: "Failed query: <sql>\nparams: <values>" — the SQL has placeholders only; the values go.
  const params = message.indexOf('\nparams:');
  if (message.startsWith('Failed query:') && params >= 0) message = message.slice(0, params);
  // PostgreSQL data exceptions (class 22) quote the refused input ('invalid input syntax for type integer:
  // "…"'); other classes quote identifiers only, but the identifiers are in constraint/table/column anyway.
  if (isSqlState(err.code) && err.code.startsWith('22')) message = message.replace(QUOTED, '"…"');
  // JSON.parse quotes a slice of the text it could not read, and that text may be a request body.
  if (err.name === 'SyntaxError' || err instanceof SyntaxError) message = message.replace(QUOTED, '"…"');
  return message;
}

/** The stack's frames under a header carrying the safe message (a stack starts with the raw message). */
function safeStack(err: ErrorLike, type: string, message: string): string | undefined {
  if (typeof err.stack !== 'string') return undefined;
  const frames = err.stack
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
  return frames ? `${type}: ${message}\n${frames}` : `${type}: ${message}`;
}

function serialize(err: ErrorLike, depth: number): SerializedError {
  // PostgreSQL's errors (pg's DatabaseError, PGlite's minified class) are named by what they are.
  const type =
    isSqlState(err.code) && typeof err.severity === 'string'
      ? 'DatabaseError'
      : typeof err.constructor === 'function' && err.constructor.name && err.constructor.name !== 'Object'
        ? err.constructor.name
        : typeof err.name === 'string'
          ? err.name
          : 'Error';
  const message = safeErrorMessage(err);
  const out: SerializedError = { type, message };
  const stack = safeStack(err, type, message);
  if (stack) out.stack = stack;
  for (const field of SAFE_FIELDS) {
    const value = err[field];
    if (typeof value === 'string' || typeof value === 'number') out[field] = value;
  }
  // drizzle keeps its SQL text apart from the parameters: worth having on its own.
  if (typeof err.query === 'string' && Array.isArray(err.params)) out.sql = err.query;
  if (isErrorLike(err.cause) && depth < 5) out.cause = serialize(err.cause, depth + 1);
  if (Array.isArray(err.errors) && depth < 5)
    out.aggregateErrors = err.errors.filter(isErrorLike).map((inner) => serialize(inner, depth + 1));
  return out;
}

/**
 * pino's `err` serializer for every logger the app makes (Fastify's, request loggers, children): anything
 * logged as `{ err }` goes through here. Whatever is logged as `err` that is not error-like (tus throws
 * `{ status_code, body }` objects) keeps only its status, never its fields.
 */
export function serializeError(err: Error): SerializedError & { stack: string } {
  const value: unknown = err;
  if (!isErrorLike(value)) {
    const status = (value as { status_code?: unknown } | null)?.status_code;
    return { type: typeof value, message: 'A value that is not an Error was thrown.', stack: '', status };
  }
  const out = serialize(value, 0);
  return { ...out, stack: out.stack ?? '' };
}
