// Domain events (docs/events.md): features emit inside their transactions; the app registers the
// subscribers and runs the outbox dispatcher.
export type { DomainEvent, EventOf, EventPayloads, EventType } from './catalogue.js';
export {
  eventBus,
  EventBus,
  type AfterCommitHandler,
  type DurableSubscriber,
  type StoredEvent,
} from './bus.js';
export { emit } from './emit.js';
export {
  dispatchOutbox,
  OUTBOX_RETENTION_MS,
  pruneOutbox,
  startOutboxDispatcher,
  type OutboxDispatcher,
} from './outbox.js';
