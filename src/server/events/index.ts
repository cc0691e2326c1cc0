// Domain events (docs/events.md): features emit inside their transactions; the app registers the
// subscribers; the jobs module runs the outbox's dispatch.
export type { DomainEvent, EventOf, EventPayloads, EventType } from './catalogue.js';
export {
  eventBus,
  EventBus,
  type AfterCommitHandler,
  type DurableSubscriber,
  type StoredEvent,
} from './bus.js';
export { emit } from './emit.js';
export { dispatchOutbox, OUTBOX_RETENTION_MS, pruneOutbox } from './outbox.js';
