import { useCallback, useEffect, useRef, useState } from 'react';
import { LoaderCircle, RotateCcw } from 'lucide-react';
import { toast } from '#client/components/ui/use-toast.ts';
import { PLAYBACK_ERROR, PlayerMessage, VIDEO_UNAVAILABLE, type PlayerMessageText } from './player-message';
import { PlayerControls } from './player-controls';
import { PlayerShell } from './player-shell';
import { useFileCheck } from './use-file-check';
import { usePlaybackRetry } from './use-playback-retry';
import { useVideoState } from './use-video-state';
import { enterFullScreen, playVideo } from './video-element';

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

/** Inline playback of a video file with play/pause, mute, seek, full screen and close (spec 2, 4, 8). */
export function FilePlayer({ src, verify, title, poster, onClose }: FilePlayerProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [failure, setFailure] = useState<PlayerMessageText | null>(src ? null : VIDEO_UNAVAILABLE);
  const verified = useFileCheck(src, verify, setFailure);
  const { phase, setPhase, muted, buffering, time, events, playing, showTime } = useVideoState(verify);

  const start = useCallback(async () => {
    const video = videoRef.current;
    if (!video) return;
    if ((await playVideo(video)) !== 'refused') return;
    setPhase('paused');
    toast({
      title: 'Video playback error',
      description: 'Could not play the video. Please try again.',
      variant: 'destructive',
    });
  }, [setPhase]);
  const retry = usePlaybackRetry({ start, setPhase, setFailure });

  // The source is set once the element is in the page, not while React renders it: a suspended render can
  // take a while to commit, and a load failing before then would find no handlers and no element to retry.
  useEffect(() => {
    const video = videoRef.current;
    if (!verified || !src || !video) return;
    video.src = src;
    void start();
  }, [verified, src, start]);

  const togglePlay = () => {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused || video.ended) void start();
    else video.pause();
  };

  const ready = verified && !failure;
  const spinning = !failure && (phase === 'checking' || phase === 'loading' || buffering);

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
            retry.played();
            playing();
          }}
          {...events}
          onLoadedMetadata={(event) => {
            retry.resume(event.currentTarget);
            showTime(event.currentTarget);
          }}
          onError={(event) => retry.recover(event.currentTarget)}
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
              onClick={() => retry.tryAgain(videoRef.current)}
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
        <PlayerControls
          playing={phase === 'playing'}
          ready={ready}
          muted={muted}
          time={time}
          onTogglePlay={togglePlay}
          onToggleMute={() => {
            const video = videoRef.current;
            if (video) video.muted = !video.muted;
          }}
          onSeek={(seconds) => {
            const video = videoRef.current;
            if (video) video.currentTime = seconds;
          }}
          onFullScreen={() => {
            const video = videoRef.current;
            if (video) enterFullScreen(video);
          }}
        />
      )}
    </PlayerShell>
  );
}
