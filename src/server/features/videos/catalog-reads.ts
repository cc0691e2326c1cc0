import type { FastifyBaseLogger } from 'fastify';
import type { VideoListQuery } from '#common/schemas/videos.js';
import type { Executor } from '#server/db/client.js';
import type { CatalogCache } from './catalog-cache.js';
import { findVideo } from './videos-repository.js';

/**
 * One page of the public catalog from the cache, keyed by its parsed query: the API's pages and the pictures
 * a page names in its Link header (page-pictures.ts) share these entries. Deep pages start from a checkpoint
 * (deep-pages.ts); any other page is OFFSET's.
 */
export function cachedCatalogPage(
  catalog: CatalogCache,
  db: Executor,
  query: VideoListQuery,
  log?: FastifyBaseLogger,
) {
  const load = () => catalog.deepPages.page(db, query, log);
  return catalog.get(JSON.stringify(query), query.q ? () => catalog.search(load) : load);
}

/** One video as anybody sees it (not purchased) from the cache; its rows are undefined when it does not exist. */
export function cachedVideo(catalog: CatalogCache, db: Executor, id: number) {
  return catalog.video(id, () => findVideo(db, id, null));
}
