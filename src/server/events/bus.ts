// Who listens to which event, per database: in-process after-commit subscribers (caches) and durable ones
// (through the outbox, outbox.ts). One bus per database object, so two apps in one process (tests) never
// hear each other's events; the app registers the subscribers, features only emit.
import { databaseOf } from '#server/db/after-commit.js';
import type { Db, Executor, Tx } from '#server/db/client.js';
import type { DomainEvent, EventOf, EventType } from './catalogue.js';

export type AfterCommitHandler<T extends EventType> = (event: EventOf<T>) => void | Promise<void>;

/** An event as the outbox delivers it: with its id, unique and growing within one transaction. */
export type StoredEvent<T extends EventType = EventType> = EventOf<T> & { id: number };

export interface DurableSubscriber<T extends EventType = EventType> {
  /** Names its progress row: renaming a subscriber starts it again from the oldest kept event. */
  name: string;
  types: readonly T[];
  /**
   * Handles one event inside the dispatcher's transaction (a savepoint of it): its writes commit with the
   * subscriber's progress. It may see an event again (a failure after an outside call): make it idempotent.
   */
  handle: (event: StoredEvent<T>, tx: Tx) => Promise<void>;
}

export type ErrorReporter = (error: unknown, context: { event: string; subscriber?: string }) => void;

export class EventBus {
  private readonly afterCommitHandlers = new Map<EventType, Set<AfterCommitHandler<EventType>>>();
  /** By name: each registration in order; the first one is handed the events (see durable). */
  private readonly durableSubscribers = new Map<string, DurableSubscriber[]>();
  private readonly durableWakers = new Set<() => void>();
  /** Where a subscriber's failure is told (the app sets its logger); the emitting change stands. */
  reportError: ErrorReporter = (error, context) =>
    console.error(`Subscriber of ${context.event} failed:`, error);

  /** Runs `handler` after each commit that emitted one of `types`; never after a rollback. */
  afterCommit<T extends EventType>(types: T | readonly T[], handler: AfterCommitHandler<T>): () => void {
    const list: readonly T[] = typeof types === 'string' ? [types] : types;
    for (const type of list) {
      let set = this.afterCommitHandlers.get(type);
      if (!set) this.afterCommitHandlers.set(type, (set = new Set()));
      set.add(handler as AfterCommitHandler<EventType>);
    }
    return () => {
      for (const type of list)
        this.afterCommitHandlers.get(type)?.delete(handler as AfterCommitHandler<EventType>);
    };
  }

  /**
   * Adds a durable subscriber: dispatchOutbox hands it each of its events at least once, in order. Progress
   * is kept by name for the database, so two apps on one database (tests, a second instance in one process)
   * that register the same name share it: the earliest registration still in place handles the events.
   */
  durable<T extends EventType>(subscriber: DurableSubscriber<T>): () => void {
    const registration = subscriber as unknown as DurableSubscriber;
    const list = this.durableSubscribers.get(subscriber.name) ?? [];
    this.durableSubscribers.set(subscriber.name, [...list, registration]);
    return () => {
      const left = (this.durableSubscribers.get(subscriber.name) ?? []).filter((r) => r !== registration);
      if (left.length) this.durableSubscribers.set(subscriber.name, left);
      else this.durableSubscribers.delete(subscriber.name);
    };
  }

  durables(): DurableSubscriber[] {
    return [...this.durableSubscribers.values()].map((registrations) => registrations[0]!);
  }

  /**
   * Calls `wake` after each commit that emitted an event a durable subscriber takes, so the dispatcher can
   * run now rather than at its next period. Returns the unsubscribe.
   */
  onDurableEvent(wake: () => void): () => void {
    this.durableWakers.add(wake);
    return () => this.durableWakers.delete(wake);
  }

  /** The committed event's in-process subscribers, one after the other; a failure is reported, not thrown. */
  async publish(event: DomainEvent): Promise<void> {
    for (const handler of this.afterCommitHandlers.get(event.type) ?? []) {
      try {
        await handler(event);
      } catch (error) {
        this.reportError(error, { event: event.type });
      }
    }
    if (this.durableWakers.size && this.durables().some((s) => s.types.includes(event.type)))
      for (const wake of this.durableWakers) wake();
  }
}

const buses = new WeakMap<Db, EventBus>();

/** The bus of the database `executor` belongs to (a transaction's or the database's own). */
export function eventBus(executor: Executor): EventBus {
  const db = databaseOf(executor);
  let bus = buses.get(db);
  if (!bus) buses.set(db, (bus = new EventBus()));
  return bus;
}
