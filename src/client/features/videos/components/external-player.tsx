import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ExternalLink, LoaderCircle } from 'lucide-react';
import { INSTAGRAM_RELOAD_DELAY_MS, PLAYBACK_RETRY_DELAYS_MS } from '#common/constants.js';
import {
  detectPlatform,
  embedUrl,
  externalPageUrl,
  PLATFORM_LABELS,
  type VideoLink,
} from '#common/video-links.js';
import { FilePlayer } from './file-player';
import { PlayerMessage } from './player-message';
import { PlayerShell } from './player-shell';

type ExternalPlayerProps = {
  url: string;
  title: string;
  poster?: string | null;
  onClose: () => void;
};

/**
 * An external link played in place (spec 2 'Video card'): YouTube, Vimeo, Instagram and X/Twitter as the
 * platform's own embedded player, direct video files in ours, a png as an image; any other link shows
 * nothing. The frame's address is built from the parsed id alone (common/video-links.ts), never the text.
 */
export function ExternalPlayer({ url, title, poster, onClose }: ExternalPlayerProps) {
  const link = useMemo(() => detectPlatform(url), [url]);
  switch (link.platform) {
    case 'file':
      return link.kind === 'image' ? (
        <ImageView src={url.trim()} title={title} onClose={onClose} />
      ) : (
        <FilePlayer src={url.trim()} verify={false} title={title} poster={poster} onClose={onClose} />
      );
    case 'youtube':
    case 'vimeo':
    case 'instagram':
    case 'x':
      return <EmbedFrame link={link} title={title} onClose={onClose} />;
    default:
      return (
        <PlayerShell title={title} onClose={onClose} data={{ 'data-testid': 'unsupported-link' }}>
          {null}
        </PlayerShell>
      );
  }
}

function ImageView({ src, title, onClose }: { src: string; title: string; onClose: () => void }) {
  const [broken, setBroken] = useState(false);
  return (
    <PlayerShell title={title} onClose={onClose} data={{ 'data-testid': 'image-view' }}>
      {broken ? (
        // spec 8.
        <PlayerMessage message={{ text: 'Image unavailable' }} />
      ) : (
        <img src={src} alt={title} className="size-full object-contain" onError={() => setBroken(true)} />
      )}
    </PlayerShell>
  );
}

type EmbeddedLink = Extract<VideoLink, { platform: 'youtube' | 'vimeo' | 'instagram' | 'x' }>;

/** A frame that has not loaded by then counts as failed (a frame reports no errors across origins). */
const EMBED_LOAD_TIMEOUT_MS = 15_000;

// spec 8; Vimeo and X are not named there and get the same sentence.
const FAILURE_TEXT: Record<EmbeddedLink['platform'], string> = {
  youtube: 'Unable to load YouTube content. The video may be private or unavailable.',
  vimeo: 'Unable to load Vimeo content. The video may be private or unavailable.',
  instagram: 'Unable to load Instagram content. The post may be private or unavailable.',
  x: 'Unable to load X/Twitter content. The post may be private or unavailable.',
};

function EmbedFrame({ link, title, onClose }: { link: EmbeddedLink; title: string; onClose: () => void }) {
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  const retryTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(retryTimer.current), []);
  const src = embedUrl(link, { autoplay: true });
  const label = PLATFORM_LABELS[link.platform];

  // spec 4: retried after 200 ms, then 500 ms; an Instagram post is reloaded after 1 s.
  const fail = useCallback(() => {
    const delays: readonly number[] =
      link.platform === 'instagram' ? [INSTAGRAM_RELOAD_DELAY_MS] : PLAYBACK_RETRY_DELAYS_MS;
    const delay = delays[attempt];
    if (delay === undefined) {
      setFailed(true);
      return;
    }
    clearTimeout(retryTimer.current);
    retryTimer.current = setTimeout(() => setAttempt(attempt + 1), delay);
  }, [attempt, link.platform]);

  useEffect(() => {
    if (loaded || failed) return;
    const timer = setTimeout(fail, EMBED_LOAD_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [loaded, failed, fail]);

  const pageUrl = externalPageUrl(link);
  return (
    <PlayerShell
      title={title}
      onClose={onClose}
      data={{ 'data-testid': 'video-embed', 'data-platform': link.platform }}
    >
      {failed ? (
        <PlayerMessage message={{ text: FAILURE_TEXT[link.platform] }}>
          {pageUrl && (
            <a
              href={pageUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex h-9 items-center gap-2 rounded-lg bg-white/10 px-3 text-sm font-semibold ring-1 ring-white/25 hover:bg-white/20"
            >
              <ExternalLink aria-hidden className="size-4" />
              Open on {label}
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          )}
        </PlayerMessage>
      ) : (
        <>
          <iframe
            key={attempt}
            src={src}
            title={`${title} (${label} player)`}
            allow="autoplay; encrypted-media; picture-in-picture; fullscreen; clipboard-write"
            allowFullScreen
            referrerPolicy="strict-origin-when-cross-origin"
            // Scripts run in the player's own origin; the frame may not navigate our page away.
            sandbox="allow-scripts allow-same-origin allow-presentation allow-popups allow-popups-to-escape-sandbox"
            className="size-full border-0"
            onLoad={() => setLoaded(true)}
            onError={fail}
          />
          {!loaded && (
            <div className="pointer-events-none absolute inset-0 flex items-center justify-center">
              <span role="status" className="inline-flex">
                <LoaderCircle aria-hidden className="size-9 animate-spin text-white" />
                <span className="sr-only">Loading the {label} player</span>
              </span>
            </div>
          )}
        </>
      )}
    </PlayerShell>
  );
}
