import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { LoaderCircle, Maximize, Pause, Play, RotateCcw, Volume2, VolumeX } from 'lucide-react';
import { PLAYBACK_RETRY_DELAYS_MS } from '../../../../common/constants.js';
import { toast } from '../../../components/ui/use-toast';
import { cn } from '../../../lib/cn';
import { formatDuration } from '../../../lib/format';
import {
  NETWORK_ERROR,
  PLAYBACK_ERROR,
  PlayerMessage,
  VIDEO_UNAVAILABLE,
  type PlayerMessageText,
} from './player-message';
import { PlayerShell } from './player-shell';

type FilePlayerProps = {
  /** Our MP4 (/media/...), or a direct file link; null when the video has no playable file. */
  src: string | null;
  /**
   * spec 7: check that the file exists (HEAD) before playing. Only for our own media: a cross-origin file
   * cannot be asked (the CSP's connect-src is 'self'), and its failure shows up as a playback error.
   */
  verify: boolean;
  title: string;
  poster?: string | null;
  onClose: () => void;
};

type Phase = 'checking' | 'loading' | 'playing' | 'paused' | 'ended';

const errorName = (error: unknown) => (error instanceof DOMException ? error.name : '');

/** Inline playback of a video file with play/pause, mute, seek, full screen and close (spec 2, 4, 8). */
export function FilePlayer({ src, verify, title, poster, onClose }: FilePlayerProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [verified, setVerified] = useState(!verify);
  const [phase, setPhase] = useState<Phase>(verify ? 'checking' : 'loading');
  const [failure, setFailure] = useState<PlayerMessageText | null>(src ? null : VIDEO_UNAVAILABLE);
  const [muted, setMuted] = useState(false);
  const [buffering, setBuffering] = useState(false);
  const [time, setTime] = useState({ current: 0, duration: 0 });
  const attempts = useRef(0);
  const resumeAt = useRef(0);
  const retryTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(retryTimer.current), []);

  useEffect(() => {
    if (!src || !verify) return;
    const controller = new AbortController();
    fetch(src, { method: 'HEAD', credentials: 'include', signal: controller.signal })
      .then((response) => {
        if (response.ok) setVerified(true);
        else setFailure(VIDEO_UNAVAILABLE);
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailure(NETWORK_ERROR);
      });
    return () => controller.abort();
  }, [src, verify]);

  const start = useCallback(async () => {
    const video = videoRef.current;
    if (!video) return;
    let failed: unknown;
    try {
      await video.play();
      return;
    } catch (error) {
      failed = error;
    }
    // spec 2: autoplay blocked (no sound without a gesture the browser counts) → play muted instead.
    if (errorName(failed) === 'NotAllowedError' && !video.muted) {
      video.muted = true;
      try {
        await video.play();
        return;
      } catch (error) {
        failed = error;
      }
    }
    // Interrupted by close or a reload (AbortError), or a media error the 'error' event is handling.
    if (errorName(failed) === 'AbortError' || errorName(failed) === 'NotSupportedError' || video.error)
      return;
    setPhase('paused');
    toast({
      title: 'Video playback error',
      description: 'Could not play the video. Please try again.',
      variant: 'destructive',
    });
  }, []);

  // The source is set once the element is in the page, not while React renders it: a suspended render can
  // take a while to commit, and a load failing before then would find no handlers and no element to retry.
  useEffect(() => {
    const video = videoRef.current;
    if (!verified || !src || !video) return;
    video.src = src;
    void start();
  }, [verified, src, start]);

  // spec 4: on a media error, reload and try again after 200 ms, then 500 ms; then give up and say so.
  const recover = (video: HTMLVideoElement) => {
    const delay = PLAYBACK_RETRY_DELAYS_MS[attempts.current];
    if (delay !== undefined) {
      attempts.current += 1;
      resumeAt.current = video.currentTime || resumeAt.current;
      setPhase('loading');
      clearTimeout(retryTimer.current);
      retryTimer.current = setTimeout(() => {
        video.load();
        void start();
      }, delay);
      return;
    }
    setFailure(PLAYBACK_ERROR);
    toast({
      title: 'Please press the refresh button',
      description: 'The video could not be played.',
      variant: 'destructive',
    });
  };

  const tryAgain = () => {
    attempts.current = 0;
    setFailure(null);
    setPhase('loading');
    const video = videoRef.current;
    if (video) {
      video.load();
      void start();
    }
  };

  const togglePlay = () => {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused || video.ended) void start();
    else video.pause();
  };

  const toggleMute = () => {
    const video = videoRef.current;
    if (video) video.muted = !video.muted;
  };

  const fullScreen = () => {
    const video = videoRef.current;
    if (!video) return;
    // iOS Safari has no element full screen for <video>, only its own player's.
    const webkit = video as HTMLVideoElement & { webkitEnterFullscreen?: () => void };
    if (video.requestFullscreen) video.requestFullscreen().catch(() => undefined);
    else webkit.webkitEnterFullscreen?.();
  };

  const ready = verified && !failure;
  const playing = phase === 'playing';
  const spinning = !failure && (phase === 'checking' || phase === 'loading' || buffering);
  const position = `${formatDuration(time.current)} / ${formatDuration(time.duration)}`;

  return (
    <PlayerShell title={title} onClose={onClose} data={{ 'data-testid': 'file-player', 'data-phase': phase }}>
      {verified && src && (
        <video
          ref={videoRef}
          poster={poster ?? undefined}
          playsInline
          preload="auto"
          className="size-full cursor-pointer object-contain"
          onClick={togglePlay}
          onPlaying={() => {
            attempts.current = 0;
            setBuffering(false);
            setPhase('playing');
          }}
          onPause={(event) => {
            if (!event.currentTarget.ended) setPhase('paused');
          }}
          onEnded={() => setPhase('ended')}
          onWaiting={() => setBuffering(true)}
          onCanPlay={() => setBuffering(false)}
          onVolumeChange={(event) => setMuted(event.currentTarget.muted)}
          onLoadedMetadata={(event) => {
            const video = event.currentTarget;
            if (resumeAt.current > 0) {
              video.currentTime = resumeAt.current;
              resumeAt.current = 0;
            }
            setTime({
              current: video.currentTime,
              duration: Number.isFinite(video.duration) ? video.duration : 0,
            });
          }}
          onTimeUpdate={(event) => {
            const video = event.currentTarget;
            setTime({
              current: video.currentTime,
              duration: Number.isFinite(video.duration) ? video.duration : 0,
            });
          }}
          onError={(event) => recover(event.currentTarget)}
        />
      )}

      {spinning && (
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <span role="status" className="inline-flex rounded-full bg-ink/50 p-2">
            <LoaderCircle aria-hidden className="size-9 animate-spin text-white" />
            <span className="sr-only">
              {phase === 'checking' ? 'Checking the video' : 'Loading the video'}
            </span>
          </span>
        </div>
      )}

      {failure && (
        <PlayerMessage message={failure}>
          {failure === PLAYBACK_ERROR && (
            <button
              type="button"
              onClick={tryAgain}
              className="inline-flex h-9 cursor-pointer items-center gap-2 rounded-lg bg-white/10 px-3 text-sm font-semibold ring-1 ring-white/25 hover:bg-white/20"
            >
              <RotateCcw aria-hidden className="size-4" />
              Try again
            </button>
          )}
        </PlayerMessage>
      )}

      {/* A failure's message (and its Try again) takes the whole player; nothing to control then. */}
      {!failure && (
        <div
          className={cn(
            'absolute inset-x-0 bottom-0 flex items-center gap-1 bg-linear-to-t from-black/85 to-transparent px-2 pt-8 pb-2 text-white',
            'transition-opacity',
            // Out of the way while the video plays and the pointer is elsewhere; always there for keyboards.
            playing && 'opacity-0 group-hover/player:opacity-100 group-focus-within/player:opacity-100',
          )}
        >
          <ControlButton label={playing ? 'Pause' : 'Play'} onClick={togglePlay} disabled={!ready}>
            {playing ? (
              <Pause aria-hidden className="fill-current" />
            ) : (
              <Play aria-hidden className="fill-current" />
            )}
          </ControlButton>
          <ControlButton label={muted ? 'Unmute' : 'Mute'} onClick={toggleMute} disabled={!ready}>
            {muted ? <VolumeX aria-hidden /> : <Volume2 aria-hidden />}
          </ControlButton>
          <input
            type="range"
            aria-label="Seek"
            aria-valuetext={position}
            min={0}
            max={time.duration || 0}
            step={0.1}
            value={Math.min(time.current, time.duration || 0)}
            disabled={!ready || !time.duration}
            onChange={(event) => {
              const video = videoRef.current;
              if (video) video.currentTime = Number(event.target.value);
            }}
            className="mx-1 h-1 min-w-0 flex-1 cursor-pointer accent-emerald-400 disabled:cursor-default disabled:opacity-40"
          />
          <span className="hidden px-1 text-xs font-medium whitespace-nowrap tabular-nums sm:inline">
            {position}
          </span>
          <ControlButton label="Full screen" onClick={fullScreen} disabled={!ready}>
            <Maximize aria-hidden />
          </ControlButton>
        </div>
      )}
    </PlayerShell>
  );
}

type ControlButtonProps = {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
};

function ControlButton({ label, onClick, disabled, children }: ControlButtonProps) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={disabled}
      className="inline-flex size-9 shrink-0 cursor-pointer items-center justify-center rounded-full hover:bg-white/15 disabled:cursor-default disabled:opacity-40 [&_svg]:size-5"
    >
      {children}
    </button>
  );
}
