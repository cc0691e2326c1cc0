import type { Db } from '#server/db/client.js';
import { eventBus, type EventType } from '#server/events/index.js';
import type { CatalogCache } from './catalog-cache.js';

/** The events after which cached catalog pages and cards are stale: a video's state, its capper's name. */
export const CATALOG_CHANGED_BY = [
  'video.changed',
  'video.deleted',
  'profile.changed',
  'user.deleted',
] as const satisfies readonly EventType[];

/** Clears the catalog cache after each commit that changed what it shows; returns the unsubscribe. */
export function clearCatalogOnChange(db: Db, catalog: CatalogCache): () => void {
  return eventBus(db).afterCommit(CATALOG_CHANGED_BY, () => catalog.clear());
}
