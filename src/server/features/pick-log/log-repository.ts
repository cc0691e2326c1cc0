// The pick log's queries. Bulk statements take many byte strings as one bytea cut in SQL (packed
// below): a bytea[] of Uint8Arrays is not bound the same way everywhere, and a text[] of hex is slow to build.
import { sql } from '#server/db/drizzle.js';
import type { NodeId, StoredNode } from '#common/pick-log/merkle.js';
import type { Executor } from '#server/db/client.js';
import { rowsOf } from '#server/db/rows.js';

export interface LogEntryRow {
  idx: number;
  type: string;
  videoId: number | null;
  capper: string | null;
  eventId: number | null;
  at: Date;
  bytes: Uint8Array;
}

const hex = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/** A bytea as either driver returns it (Buffer from pg, Uint8Array from PGlite), as a plain Uint8Array. */
export function asBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (typeof value === 'string' && value.startsWith('\\x')) return Buffer.from(value.slice(2), 'hex');
  throw new Error('not a bytea value');
}

/**
 * Many byte strings as one bytea (a Buffer, which the driver sends in binary) and where each starts and how
 * long it is, for `substring(all from start for length)` in SQL: as a text[] of hex, a grading's entries
 * would hold the event loop while the driver escaped, joined and encoded all that text, stalling other
 * requests.
 */
function packed(list: readonly Uint8Array[]): { all: Buffer; starts: number[]; lengths: number[] } {
  const starts: number[] = [];
  const lengths: number[] = [];
  let start = 1; // substring() counts from 1
  for (const bytes of list) {
    starts.push(start);
    lengths.push(bytes.byteLength);
    start += bytes.byteLength;
  }
  return { all: Buffer.concat(list), starts, lengths };
}

export interface PendingEntryRow {
  type: string;
  /** A pick's entry: its video and capper; an evidence entry: its game's event. */
  videoId: number | null;
  capper: string | null;
  eventId: number | null;
  at: Date;
  bytes: Uint8Array;
}

/** Entries of an action, written in its transaction, numbered later by the sequencer. */
export async function insertPending(db: Executor, rows: readonly PendingEntryRow[]): Promise<void> {
  if (!rows.length) return;
  const { all, starts, lengths } = packed(rows.map((row) => row.bytes));
  await db.execute(sql`
    insert into log_pending (type, video_id, capper, event_id, at, bytes)
    select e.type, e.video_id, e.capper, e.event_id, e.at, substring(${all}::bytea from e.start for e.length)
    from unnest(
      ${sql.param(rows.map((r) => r.type))}::text[], ${sql.param(rows.map((r) => r.videoId))}::int[],
      ${sql.param(rows.map((r) => r.capper))}::text[], ${sql.param(rows.map((r) => r.eventId))}::int[],
      ${sql.param(rows.map((r) => r.at.toISOString()))}::timestamptz[],
      ${sql.param(starts)}::int[], ${sql.param(lengths)}::int[]
    ) with ordinality as e(type, video_id, capper, event_id, at, start, length, n)
    order by e.n`);
}

/**
 * The log's size, its row locked to the end of the transaction: one sequencer at a time (on every
 * instance), and appends in the order they were numbered.
 */
export async function lockLogSize(db: Executor): Promise<number> {
  const [row] = rowsOf<{ size: string | number }>(
    await db.execute(sql`select size from log_state where id = 1 for update`),
  );
  return Number(row!.size);
}

export async function setLogSize(db: Executor, size: number): Promise<void> {
  await db.execute(sql`update log_state set size = ${size} where id = 1`);
}

/**
 * The oldest committed pending entries, in the order they were written. Read as one json array: PGlite hands
 * rows over one at a time, slowly enough that a batch of them would cost more than the query.
 */
export async function oldestPending(
  db: Executor,
  limit: number,
): Promise<(PendingEntryRow & { id: number })[]> {
  const [row] = rowsOf<{ rows: unknown }>(
    await db.execute(sql`
      select coalesce(json_agg(json_build_array(p.id, p.type, p.video_id, p.capper, p.event_id, p.at,
          encode(p.bytes, 'hex')) order by p.id), '[]') as rows
      from (select id, type, video_id, capper, event_id, at, bytes from log_pending order by id limit ${limit}) p`),
  );
  const value = row!.rows;
  const rows = (typeof value === 'string' ? JSON.parse(value) : value) as [
    string | number,
    string,
    number | null,
    string | null,
    number | null,
    string,
    string,
  ][];
  return rows.map(([id, type, videoId, capper, eventId, at, bytes]) => ({
    id: Number(id),
    type,
    videoId,
    capper,
    eventId,
    at: new Date(at),
    bytes: new Uint8Array(Buffer.from(bytes, 'hex')),
  }));
}

export async function deletePending(db: Executor, ids: readonly number[]): Promise<void> {
  await db.execute(sql`delete from log_pending where id = any(${sql.param(ids)}::bigint[])`);
}

/** Whether any entry waits for its number. */
export async function hasPending(db: Executor): Promise<boolean> {
  const [row] = rowsOf<{ waiting: boolean }>(
    await db.execute(sql`select exists (select 1 from log_pending) as waiting`),
  );
  return Boolean(row?.waiting);
}

/** How many entries the log holds (committed). */
export async function logSize(db: Executor): Promise<number> {
  const [row] = rowsOf<{ size: string | number }>(
    await db.execute(sql`select size from log_state where id = 1`),
  );
  return Number(row?.size ?? 0);
}

export async function insertEntries(db: Executor, rows: readonly LogEntryRow[]): Promise<void> {
  if (!rows.length) return;
  const { all, starts, lengths } = packed(rows.map((row) => row.bytes));
  await db.execute(sql`
    insert into log_entries (idx, type, video_id, capper, event_id, at, bytes)
    select e.idx, e.type, e.video_id, e.capper, e.event_id, e.at, substring(${all}::bytea from e.start for e.length)
    from unnest(
      ${sql.param(rows.map((r) => r.idx))}::bigint[], ${sql.param(rows.map((r) => r.type))}::text[],
      ${sql.param(rows.map((r) => r.videoId))}::int[], ${sql.param(rows.map((r) => r.capper))}::text[],
      ${sql.param(rows.map((r) => r.eventId))}::int[],
      ${sql.param(rows.map((r) => r.at.toISOString()))}::timestamptz[],
      ${sql.param(starts)}::int[], ${sql.param(lengths)}::int[]
    ) as e(idx, type, video_id, capper, event_id, at, start, length)`);
}

export async function insertNodes(db: Executor, nodes: readonly StoredNode[]): Promise<void> {
  if (!nodes.length) return;
  const { all, starts, lengths } = packed(nodes.map((node) => node.hash));
  await db.execute(sql`
    insert into log_nodes (level, idx, hash)
    select n.level, n.idx, substring(${all}::bytea from n.start for n.length)
    from unnest(
      ${sql.param(nodes.map((n) => n.level))}::smallint[], ${sql.param(nodes.map((n) => n.index))}::bigint[],
      ${sql.param(starts)}::int[], ${sql.param(lengths)}::int[]
    ) as n(level, idx, start, length)`);
}

/** The stored hashes of these perfect subtrees, keyed `level:index`; a missing one is a broken log. */
export async function readNodes(db: Executor, ids: readonly NodeId[]): Promise<Map<string, Uint8Array>> {
  const found = new Map<string, Uint8Array>();
  if (!ids.length) return found;
  const rows = rowsOf<{ level: number; idx: string | number; hash: unknown }>(
    await db.execute(sql`
      select n.level, n.idx, n.hash
      from unnest(${sql.param(ids.map((id) => id.level))}::smallint[], ${sql.param(ids.map((id) => id.index))}::bigint[])
        as wanted(level, idx)
      join log_nodes n on n.level = wanted.level and n.idx = wanted.idx`),
  );
  for (const row of rows) found.set(nodeKey({ level: row.level, index: Number(row.idx) }), asBytes(row.hash));
  for (const id of ids) {
    if (!found.has(nodeKey(id))) throw new Error(`pick log: node ${nodeKey(id)} is missing`);
  }
  return found;
}

export const nodeKey = (id: NodeId) => `${id.level}:${id.index}`;

/** The stored hashes of `count` consecutive perfect subtrees at `level` from `start` (a tile's). */
export async function readNodeRange(
  db: Executor,
  level: number,
  start: number,
  count: number,
): Promise<Uint8Array[]> {
  const rows = rowsOf<{ hash: unknown }>(
    await db.execute(sql`
      select hash from log_nodes
      where level = ${level} and idx >= ${start} and idx < ${start + count}
      order by idx`),
  );
  if (rows.length !== count) throw new Error(`pick log: level ${level} lacks nodes from ${start}`);
  return rows.map((row) => asBytes(row.hash));
}

export async function readEntryBytes(db: Executor, start: number, end: number): Promise<Uint8Array[]> {
  const rows = rowsOf<{ bytes: unknown }>(
    await db.execute(sql`select bytes from log_entries where idx >= ${start} and idx < ${end} order by idx`),
  );
  return rows.map((row) => asBytes(row.bytes));
}

export interface LogRefRow {
  idx: number;
  type: string;
  at: Date;
  /** The entry as logged: the page's title for it is read from its own fields. */
  bytes: Uint8Array;
}

/**
 * A pick's entries, and the evidence entries of its legs' games (their outcomes, corrections and closing
 * prices), in log order.
 */
export async function entriesOfVideo(db: Executor, videoId: number): Promise<LogRefRow[]> {
  const rows = rowsOf<{ idx: string | number; type: string; at: Date | string; bytes: unknown }>(
    await db.execute(sql`
      select idx, type, at, bytes from log_entries where video_id = ${videoId}
      union all
      select e.idx, e.type, e.at, e.bytes from log_entries e
      where e.event_id in (select l.event_id from pick_legs l where l.video_id = ${videoId})
      order by idx`),
  );
  return rows.map((row) => ({
    idx: Number(row.idx),
    type: row.type,
    at: new Date(row.at),
    bytes: asBytes(row.bytes),
  }));
}

export interface CheckpointRow {
  size: number;
  root: Uint8Array;
  note: string;
}

export async function latestCheckpoint(db: Executor): Promise<CheckpointRow | null> {
  const [row] = rowsOf<{ size: string | number; root: unknown; note: string }>(
    await db.execute(sql`select size, root, note from log_checkpoints order by size desc limit 1`),
  );
  return row ? { size: Number(row.size), root: asBytes(row.root), note: row.note } : null;
}

export async function insertCheckpoint(db: Executor, checkpoint: CheckpointRow): Promise<void> {
  await db.execute(sql`
    insert into log_checkpoints (size, root, note)
    values (${checkpoint.size}, decode(${hex(checkpoint.root)}, 'hex'), ${checkpoint.note})
    on conflict (size) do nothing`);
}

export interface IdentityRow {
  origin: string;
  verifierKey: string;
}

export async function readIdentity(db: Executor): Promise<IdentityRow | null> {
  const [row] = rowsOf<{ origin: string; verifier_key: string }>(
    await db.execute(sql`select origin, verifier_key from log_identity where id = 1`),
  );
  return row ? { origin: row.origin, verifierKey: row.verifier_key } : null;
}

/** Records a new log's identity unless another instance got there first (then the caller re-reads it). */
export async function claimIdentity(db: Executor, identity: IdentityRow): Promise<void> {
  await db.execute(sql`
    insert into log_identity (id, origin, verifier_key) values (1, ${identity.origin}, ${identity.verifierKey})
    on conflict (id) do nothing`);
}

/** A re-key (PICK_LOG_NEW_KEY): the log keeps its origin, its verifiers see a new key. */
export async function changeIdentityKey(db: Executor, verifierKey: string): Promise<void> {
  await db.execute(
    sql`update log_identity set verifier_key = ${verifierKey}, key_changed_at = now() where id = 1`,
  );
}

export interface LogPickRow {
  videoId: number;
  title: string | null;
  deleted: boolean;
}

/**
 * The titles the /log page shows beside entries: the pick's own (kept with its record when the video goes),
 * none for a pick removed by moderation or never known; `deleted` when the video is gone.
 */
export async function logPickTitles(db: Executor, videoIds: readonly number[]): Promise<LogPickRow[]> {
  if (!videoIds.length) return [];
  return rowsOf<LogPickRow>(
    await db.execute(sql`
      select ids.id as "videoId",
        case when p.removed is distinct from 'moderation' then coalesce(v.title, p.title) end as title,
        v.id is null as deleted
      from unnest(${sql.param(videoIds)}::int[]) as ids(id)
      left join picks p on p.video_id = ids.id
      left join videos v on v.id = ids.id
      order by ids.id`),
  );
}
