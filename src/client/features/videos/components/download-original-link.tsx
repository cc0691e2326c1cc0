import { Download } from 'lucide-react';
import { downloadFileName } from '#common/download-name.js';
import type { Video } from '#common/schemas/videos.js';
import { buttonClasses } from '#client/components/ui/button.tsx';

/** The name a downloaded original is saved under (the server's Content-Disposition gives the same). */
export function originalFileName(video: Pick<Video, 'title' | 'originalUrl'>): string {
  return downloadFileName(video.title, /\.([a-z0-9]+)$/i.exec(video.originalUrl ?? '')?.[1] ?? 'mov');
}

/**
 * docs/product-decisions.md 'Media': the uploaded original stays available to its owner and buyers ("direct download
 * after purchase"). The server sends `originalUrl` only to them (and admins) and checks again on download.
 */
export function DownloadOriginalLink({
  video,
  size = 'md',
}: {
  video: Pick<Video, 'title' | 'originalUrl'>;
  size?: 'sm' | 'md';
}) {
  if (!video.originalUrl) return null;
  return (
    <a href={video.originalUrl} download={originalFileName(video)} className={buttonClasses('outline', size)}>
      <Download aria-hidden />
      Download original
    </a>
  );
}
