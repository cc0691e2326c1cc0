// The videos feature's public entry (issue 13): a capper's own videos as cards, and the original-file link
// a purchase offers. Its pages are the router's.
export { useUserVideos } from './api/get-user-videos';
export { DownloadOriginalLink } from './components/download-original-link';
export { VideoCard } from './components/video-card';
