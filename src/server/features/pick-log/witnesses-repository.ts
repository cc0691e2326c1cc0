// Witnesses' cosignatures of the log's checkpoints (docs/decisions/026): stored per tree size and witness.
import { sql } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { rowsOf } from '#server/db/rows.js';
import { asBytes } from './log-repository.js';

export interface CosignatureRow {
  size: number;
  /** The witness's verifier key. */
  witness: string;
  /** The root of the checkpoint it cosigned. */
  root: Uint8Array;
  /** The signature line, without its newline. */
  line: string;
  cosignedAt: Date;
}

const hex = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/**
 * Stores witnesses' cosignatures in one statement (one per witness and size: a later answer for a size, a
 * refresh, replaces the one before).
 */
export async function saveCosignatures(db: Executor, rows: readonly CosignatureRow[]): Promise<void> {
  if (!rows.length) return;
  const values = rows.map(
    (row) =>
      sql`(${row.size}, ${row.witness}, decode(${hex(row.root)}, 'hex'), ${row.line}, ${row.cosignedAt.toISOString()})`,
  );
  await db.execute(sql`
    insert into log_cosignatures (size, witness, root, line, cosigned_at)
    values ${sql.join(values, sql`, `)}
    on conflict (size, witness) do update
      set root = excluded.root, line = excluded.line, cosigned_at = excluded.cosigned_at`);
}

/** The cosignature lines of the checkpoint of this size and root, in the order of the witnesses' keys. */
export async function cosignatureLinesOf(db: Executor, size: number, root: Uint8Array): Promise<string[]> {
  const rows = rowsOf<{ line: string }>(
    await db.execute(sql`
      select line from log_cosignatures where size = ${size} and root = decode(${hex(root)}, 'hex')
      order by witness`),
  );
  return rows.map((row) => row.line);
}

/** The latest checkpoint a witness cosigned here: its size, root and when; null if none. */
export async function lastCosignedBy(
  db: Executor,
  witness: string,
): Promise<{ size: number; root: Uint8Array; cosignedAt: Date } | null> {
  const [row] = rowsOf<{ size: string | number; root: unknown; cosigned_at: Date | string }>(
    await db.execute(sql`
      select size, root, cosigned_at from log_cosignatures where witness = ${witness}
      order by size desc limit 1`),
  );
  return row
    ? { size: Number(row.size), root: asBytes(row.root), cosignedAt: new Date(row.cosigned_at) }
    : null;
}
