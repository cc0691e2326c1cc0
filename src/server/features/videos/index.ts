// The videos feature's public entry: its routes and caches for the app; for the other features, the one way a
// video becomes JSON (toPublicVideo), the use-cases that make, change and delete a video row, and a few reads.
export { videoRoutes } from './routes.js';
export { mediaRoutes } from './media-routes.js';
export { mediaVideoRecords } from './media-records.js';
export { CatalogCache } from './catalog-cache.js';
export { clearCatalogOnChange } from './catalog-subscriptions.js';
export { pagePictures } from './page-pictures.js';
export {
  createVideo,
  deleteVideoWithPick,
  getVisibleVideo,
  openPicksOfCappers,
  resetProcessing,
  setOriginalFileKey,
  toPublicVideo,
  viewerOf,
  type Viewer,
} from './videos-service.js';
// Reads that others build on; every write to a video row goes through a use-case above.
export { findVideoOfUpload, findVideoRow, listAllVideos, type VideoRow } from './videos-repository.js';
