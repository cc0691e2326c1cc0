import { afterCommit } from '#server/db/after-commit.js';
import type { Executor } from '#server/db/client.js';
import { domainEvents } from '#server/db/schema.js';
import { eventBus } from './bus.js';
import type { DomainEvent } from './catalogue.js';

/**
 * Records `event` in the outbox within `tx`, the transaction that made it true, and hands it to the
 * in-process subscribers once that transaction has committed (before the db.transaction call returns).
 * A rollback drops both. Given the database itself, the event commits at once.
 */
export async function emit(tx: Executor, event: DomainEvent): Promise<void> {
  const { type, ...payload } = event;
  await tx.insert(domainEvents).values({ type, payload });
  await afterCommit(tx, () => eventBus(tx).publish(event));
}
