import type { Column, Table } from 'drizzle-orm';
import { sql, type SQL } from './drizzle.js';
import type { Executor } from './client.js';

/** The rows of a raw query's result (`db.execute`): node-postgres and PGlite both carry `rows`. */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * A query's rows read as one json array: PGlite hands rows over one at a time, so thousands of rows cost
 * far more as rows than as one value (docs/decisions/020). Numerics arrive as
 * numbers, times as ISO text.
 */
export async function jsonRowsOf<T>(db: Executor, query: SQL): Promise<T[]> {
  const [row] = rowsOf<{ rows: unknown }>(
    await db.execute(sql`select coalesce(json_agg(q), '[]') as rows from (${query}) q`),
  );
  return fromJson<T[]>(row!.rows);
}

/** A json column as either driver hands it over: parsed already (pg's json parser), or as text. */
export function fromJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** A column's value as a json row carries it: times as ISO text, null where the column allows it. */
type JsonValue<C extends Column> =
  (C['_']['data'] extends Date ? string : C['_']['data']) | (C['_']['notNull'] extends true ? never : null);

/**
 * A raw query's row as jsonRowsOf reads it, typed from schema.ts: the table's chosen columns under their database
 * names, as the query selects them. A column renamed or retyped in the schema fails the type check where it is read.
 */
export type JsonRow<T extends Table, K extends keyof T['_']['columns']> = {
  [C in K as T['_']['columns'][C]['_']['name']]: JsonValue<T['_']['columns'][C]>;
};
