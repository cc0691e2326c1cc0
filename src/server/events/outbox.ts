// Durable delivery: each durable subscriber reads the outbox from its stored position, in (tx_id, id)
// order, and stores its new position in the transaction that ran its handlers. Only events of
// transactions older than every transaction still running are read (pg_snapshot_xmin): ids are drawn at
// insert, not at commit, so a reader going by id alone could pass an event a slow transaction commits
// later. docs/decisions/031.
import type { Db } from '#server/db/client.js';
import { sql } from '#server/db/drizzle.js';
import { rowsOf } from '#server/db/rows.js';
import { eventBus, type DurableSubscriber, type StoredEvent } from './bus.js';

const BATCH = 100;
/** Events every subscriber has passed are kept this long, then pruned. */
export const OUTBOX_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

interface Progress {
  tx_id: string;
  event_id: string;
}

interface OutboxRow {
  id: string;
  tx_id: string;
  type: string;
  payload: Record<string, unknown>;
}

/**
 * Hands each durable subscriber of `db`'s bus its events not yet handled, up to `batch` each. Safe to run
 * from several instances at once: a subscriber being dispatched elsewhere is skipped. A handler that fails
 * stops its subscriber at that event (reported), to be tried again at the next dispatch: order holds.
 * Returns how many events were handled.
 */
export async function dispatchOutbox(db: Db, options: { batch?: number } = {}): Promise<number> {
  let handled = 0;
  for (const subscriber of eventBus(db).durables())
    handled += await dispatchTo(db, subscriber, options.batch ?? BATCH);
  return handled;
}

// Events are read only below the oldest transaction still running in this database (another database's
// transactions cannot write this outbox), so one that commits late is never passed. pg_stat_activity gives
// a 32-bit xid: it is widened with the current epoch to compare with the stored xid8.
const OLDEST_WRITER = sql`coalesce(
  (select min(
      (((pg_snapshot_xmax(pg_current_snapshot())::text::bigint >> 32) << 32) + a.backend_xid::text::bigint
        - case when a.backend_xid::text::bigint > (pg_snapshot_xmax(pg_current_snapshot())::text::bigint & 4294967295)
          then 4294967296 else 0 end)::text::xid8)
    from pg_stat_activity a
    where a.datname = current_database() and a.pid <> pg_backend_pid() and a.backend_xid is not null),
  pg_snapshot_xmax(pg_current_snapshot()))`;

async function dispatchTo(db: Db, subscriber: DurableSubscriber, batch: number): Promise<number> {
  const bus = eventBus(db);
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`insert into event_subscriptions (name) values (${subscriber.name}) on conflict do nothing`,
    );
    const [progress] = rowsOf<Progress>(
      await tx.execute(sql`
        select tx_id::text as tx_id, event_id::text as event_id from event_subscriptions
        where name = ${subscriber.name} for update skip locked`),
    );
    if (!progress) return 0; // another instance is dispatching to it
    let handledHere = 0;
    // One bound for the whole round: every event below it has committed (or never will), so the position
    // may move past the other types' events below it too (next statement).
    const { bound } = rowsOf<{ bound: string }>(
      await tx.execute(sql`select (${OLDEST_WRITER})::text as bound`),
    )[0]!;
    const types = sql.join(
      subscriber.types.map((type) => sql`${type}`),
      sql`, `,
    );
    const rows = rowsOf<OutboxRow>(
      await tx.execute(sql`
        select id::text as id, tx_id::text as tx_id, type, payload from domain_events
        where (tx_id, id) > (${progress.tx_id}::xid8, ${progress.event_id}::bigint)
          and tx_id < ${bound}::xid8
          and type in (${types})
        order by tx_id, id
        limit ${batch}`),
    );
    let last: Pick<OutboxRow, 'id' | 'tx_id'> | undefined;
    let failed = false;
    for (const row of rows) {
      const event = { ...row.payload, type: row.type, id: Number(row.id) } as StoredEvent;
      try {
        // A savepoint: a failing handler's writes go, those of the events before it stay with the progress.
        await tx.transaction((savepoint) => subscriber.handle(event, savepoint));
      } catch (error) {
        bus.reportError(error, { event: row.type, subscriber: subscriber.name });
        failed = true;
        break;
      }
      last = row;
      handledHere += 1;
    }
    // Caught up with its own types: its position moves past the other types' events below the bound, so a
    // subscriber of a rare type never holds back the outbox's pruning.
    if (!failed && rows.length < batch) {
      const [end] = rowsOf<Pick<OutboxRow, 'id' | 'tx_id'>>(
        await tx.execute(sql`
          select id::text as id, tx_id::text as tx_id from domain_events
          where (tx_id, id) > (${last?.tx_id ?? progress.tx_id}::xid8, ${last?.id ?? progress.event_id}::bigint)
            and tx_id < ${bound}::xid8
          order by tx_id desc, id desc
          limit 1`),
      );
      if (end) last = end;
    }
    if (last)
      await tx.execute(sql`
        update event_subscriptions set tx_id = ${last.tx_id}::xid8, event_id = ${last.id}::bigint, updated_at = now()
        where name = ${subscriber.name}`);
    return handledHere;
  });
}

/**
 * Deletes the events older than `olderThanMs` that every subscriber with stored progress has passed.
 * A durable subscriber added later starts from the oldest event kept.
 */
export async function pruneOutbox(db: Db, olderThanMs = OUTBOX_RETENTION_MS): Promise<number> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      delete from domain_events e
      where e.created_at < now() - make_interval(secs => ${olderThanMs / 1000})
        and not exists (select 1 from event_subscriptions s where (s.tx_id, s.event_id) < (e.tx_id, e.id))
      returning e.id`),
  );
  return rows.length;
}
