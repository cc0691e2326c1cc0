// The videos feature's public entry (issue 13): its routes and caches for the app; for the other features,
// the one way a video becomes JSON (toPublicVideo) and the few video queries they build on.
export { videoRoutes } from './routes.js';
export { mediaRoutes } from './media-routes.js';
export { mediaVideoRecords } from './media-records.js';
export { CatalogCache } from './catalog-cache.js';
export { clearCatalogOnChange } from './catalog-subscriptions.js';
export { pagePictures } from './page-pictures.js';
export { getVisibleVideo, toPublicVideo, viewerOf } from './videos-service.js';
export {
  capperColumns,
  deleteVideo,
  findVideoRow,
  insertVideo,
  listAllVideos,
  updateVideo,
  type VideoRow,
} from './videos-repository.js';
