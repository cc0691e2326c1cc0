import { lazy, Suspense } from 'react';
import type { Video } from '#common/schemas/videos.js';

// The panel (receipt, legs, commitment check) is for the pick's owner and its buyers: every other visitor's
// page never downloads its code.
const YourSelectionsPanel = lazy(() =>
  import('./your-selections-panel').then((module) => ({ default: module.YourSelectionsPanel })),
);

/** The owner's or buyer's selections at the top of the pick's page; nothing for anyone else. */
export function YourSelections({ video, purchased }: { video: Video; purchased: boolean }) {
  if (!video.isOwner && !purchased) return null;
  return (
    <Suspense fallback={null}>
      <YourSelectionsPanel video={video} purchased={purchased} />
    </Suspense>
  );
}
