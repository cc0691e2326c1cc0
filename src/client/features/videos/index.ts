// The videos feature's public entry: a capper's own videos as cards and the original-file link a
// purchase offers (the dashboard's); the catalog's grid of cards (the Following page's); one video and the
// query keys a payment refreshes (checkout's). Its pages are the router's.
export { useUserVideos } from './api/get-user-videos';
export { parseVideoId, useVideo, videoQueryKey } from './api/get-video';
export { videoPurchasedQueryKey } from './api/get-video-purchased';
export { VIDEOS_QUERY_KEY } from './api/get-videos';
export { DownloadOriginalLink } from './components/download-original-link';
export { VideoCard } from './components/video-card';
export { VideoGrid, VideoGridError, VideoGridSkeleton } from './components/video-grid';
