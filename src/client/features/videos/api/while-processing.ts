import type { Video } from '#common/schemas/videos.js';

/** How often a view of a video being processed asks again: the server writes progress at most once a second. */
export const PROCESSING_POLL_MS = 2_000;

/** A file of ours the server is still working on: its status and progress change without anyone's doing. */
export function isProcessing(video: Pick<Video, 'isExternalVideo' | 'transcodingStatus'>): boolean {
  return (
    !video.isExternalVideo &&
    (video.transcodingStatus === 'pending' || video.transcodingStatus === 'processing')
  );
}

function holdsProcessing(data: Video | Video[] | undefined): boolean {
  if (!data) return false;
  return Array.isArray(data) ? data.some(isProcessing) : isProcessing(data);
}

type HeldBy<T> = { state: { data: T | undefined } };

/**
 * docs/product-decisions.md 'Live status': nothing is polled, except a query whose videos include one being processed,
 * while something shows it (TanStack Query polls only queries in use, and not in a hidden tab). It also asks
 * again when shown, since what it holds may have finished meanwhile. Spread into a query's options.
 */
export function whileProcessing<T extends Video | Video[]>() {
  return {
    refetchInterval: (query: HeldBy<T>) => (holdsProcessing(query.state.data) ? PROCESSING_POLL_MS : false),
    refetchOnMount: (query: HeldBy<T>) => (holdsProcessing(query.state.data) ? ('always' as const) : true),
  };
}
