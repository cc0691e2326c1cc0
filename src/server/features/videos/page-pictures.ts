import type { FastifyBaseLogger } from 'fastify';
import { VideoListQuerySchema } from '#common/schemas/videos.js';
import type { Db } from '#server/db/client.js';
import type { PagePictures } from '#server/plugins/client.js';
import type { CatalogCache } from './catalog-cache.js';
import { cachedCatalogPage, cachedVideo } from './catalog-reads.js';
import { mayView } from './videos-service.js';

// The parsed query of `GET /api/videos` with no parameters: the same cache entry as that request.
const FIRST_PAGE = VideoListQuerySchema.parse({});

/**
 * Read from the catalog's cache (decision 012), which the page's own data request (preloaded beside it)
 * fills or takes: naming the picture costs a page no query of its own (LCP of /videos and
 * /video/{id}: the picture's request leaves with the page's code instead of after its first render).
 */
export function pagePictures(db: Db, catalog: CatalogCache, log: FastifyBaseLogger): PagePictures {
  return {
    async catalogFirst() {
      const rows = await cachedCatalogPage(catalog, db, FIRST_PAGE, log).value;
      return rows[0]?.video.thumbnailUrl ?? null;
    },
    async video(id) {
      const row = await cachedVideo(catalog, db, id).value;
      return row && mayView(row, null) ? row.video.thumbnailUrl : null;
    },
  };
}
