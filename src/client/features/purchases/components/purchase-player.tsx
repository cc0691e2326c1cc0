import { useEffect, useRef, useState } from 'react';
import { ExternalLink, Pause, Play, Square, Volume2, VolumeX } from 'lucide-react';
import { PLAY_START_DELAY_MS } from '#common/constants.js';
import type { Video } from '#common/schemas/videos.js';
import { detectPlatform, embedUrl, PLATFORM_LABELS, type VideoLink } from '#common/video-links.js';
import { cn } from '#client/lib/cn.ts';

/** What pressing play on a purchase shows: an embedded player, the file itself, or nothing playable. */
export type Playable =
  | { kind: 'embed'; src: string; platform: VideoLink['platform'] }
  | { kind: 'file'; src: string }
  | { kind: 'elsewhere'; href: string; platform: VideoLink['platform'] };

export function playableOf(video: Video): Playable | null {
  if (video.isExternalVideo && video.externalVideoUrl) {
    const link = detectPlatform(video.externalVideoUrl);
    if (link.platform === 'file') return { kind: 'file', src: video.externalVideoUrl };
    // spec 2: a Vimeo link embeds an autoplaying player; the other embeddable sites play the same way.
    const src = embedUrl(link, { autoplay: true });
    if (src) return { kind: 'embed', src, platform: link.platform };
    return { kind: 'elsewhere', href: video.externalVideoUrl, platform: link.platform };
  }
  const src = video.videoUrl ?? video.webmUrl ?? video.ogvUrl;
  return src ? { kind: 'file', src } : null;
}

const CONTROL =
  'inline-flex size-9 cursor-pointer items-center justify-center rounded-full bg-ink/75 text-white transition-colors hover:bg-primary [&_svg]:size-4';

type PurchasePlayerProps = { video: Video; playable: Playable; onStop: () => void };

/** Inline playback on the purchase card (spec 2): pause/resume, stop (back to the thumbnail) and mute. */
export function PurchasePlayer({ video, playable, onStop }: PurchasePlayerProps) {
  if (playable.kind === 'embed') {
    return (
      <div className="relative size-full bg-black">
        <iframe
          src={playable.src}
          title={`${video.title} (${PLATFORM_LABELS[playable.platform]} player)`}
          allow="autoplay; encrypted-media; fullscreen; picture-in-picture"
          allowFullScreen
          className="size-full border-0"
        />
        <button type="button" onClick={onStop} className={cn(CONTROL, 'absolute top-2 right-2')}>
          <Square aria-hidden className="fill-current" />
          <span className="sr-only">Stop</span>
        </button>
      </div>
    );
  }
  if (playable.kind === 'elsewhere') {
    return (
      <div className="flex size-full flex-col items-center justify-center gap-3 bg-ink p-4 text-center text-sm text-white">
        <p>This video plays on {PLATFORM_LABELS[playable.platform]}.</p>
        <div className="flex gap-2">
          <a
            href={playable.href}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1.5 rounded-md bg-white/15 px-3 py-1.5 font-medium hover:bg-white/25"
          >
            <ExternalLink aria-hidden className="size-4" />
            Open video
          </a>
          <button
            type="button"
            onClick={onStop}
            className="cursor-pointer rounded-md px-3 py-1.5 font-medium hover:bg-white/15"
          >
            Close
          </button>
        </div>
      </div>
    );
  }
  return <FilePlayer video={video} src={playable.src} onStop={onStop} />;
}

function FilePlayer({ video, src, onStop }: { video: Video; src: string; onStop: () => void }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [paused, setPaused] = useState(true);
  const [muted, setMuted] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    // spec 9: playback starts about 100 ms after pressing play; blocked autoplay is retried muted (spec 2).
    const timer = setTimeout(() => {
      element.play().catch((error: unknown) => {
        if (error instanceof DOMException && error.name === 'NotAllowedError') {
          element.muted = true;
          setMuted(true);
          element.play().catch(() => setPaused(true));
        }
      });
    }, PLAY_START_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  const togglePlay = () => {
    const element = ref.current;
    if (!element) return;
    if (element.paused) void element.play().catch(() => setPaused(true));
    else element.pause();
  };

  const toggleMute = () => {
    const element = ref.current;
    if (!element) return;
    element.muted = !element.muted;
    setMuted(element.muted);
  };

  if (failed) {
    return (
      <div className="flex size-full flex-col items-center justify-center gap-3 bg-ink p-4 text-center text-sm text-white">
        <p>
          <strong>Playback Error:</strong> There was an issue playing this video. Please try again later.
        </p>
        <button
          type="button"
          onClick={onStop}
          className="cursor-pointer rounded-md bg-white/15 px-3 py-1.5 font-medium hover:bg-white/25"
        >
          Close
        </button>
      </div>
    );
  }

  return (
    <div className="relative size-full bg-black">
      <video
        ref={ref}
        src={src}
        poster={video.thumbnailUrl ?? undefined}
        playsInline
        preload="metadata"
        className="size-full object-contain"
        onPlay={() => setPaused(false)}
        onPause={() => setPaused(true)}
        onEnded={() => setPaused(true)}
        onError={() => setFailed(true)}
        aria-label={`${video.title} video`}
      />
      <div className="absolute inset-x-0 bottom-0 flex items-center gap-2 bg-linear-to-t from-ink/80 to-transparent p-2">
        <button type="button" onClick={togglePlay} className={CONTROL}>
          {paused ? (
            <Play aria-hidden className="fill-current" />
          ) : (
            <Pause aria-hidden className="fill-current" />
          )}
          <span className="sr-only">{paused ? 'Resume' : 'Pause'}</span>
        </button>
        <button type="button" onClick={onStop} className={CONTROL}>
          <Square aria-hidden className="fill-current" />
          <span className="sr-only">Stop</span>
        </button>
        <button type="button" onClick={toggleMute} className={cn(CONTROL, 'ml-auto')} aria-pressed={muted}>
          {muted ? <VolumeX aria-hidden /> : <Volume2 aria-hidden />}
          <span className="sr-only">Mute</span>
        </button>
      </div>
    </div>
  );
}
