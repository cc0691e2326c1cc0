import { useEffect, useRef } from 'react';
import { PLAYBACK_RETRY_DELAYS_MS } from '#common/constants.js';
import { toast } from '#client/components/ui/use-toast.ts';
import { PLAYBACK_ERROR, type PlayerMessageText } from './player-message';
import type { PlayerPhase } from './use-video-state';

type PlaybackRetryOptions = {
  /** Plays the element again (after a reload). */
  start: () => Promise<void>;
  setPhase: (phase: PlayerPhase) => void;
  setFailure: (failure: PlayerMessageText | null) => void;
};

/** spec 4: on a media error, reload and try again after 200 ms, then 500 ms; then give up and say so. */
export function usePlaybackRetry({ start, setPhase, setFailure }: PlaybackRetryOptions) {
  const attempts = useRef(0);
  const resumeAt = useRef(0);
  const retryTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(retryTimer.current), []);

  /** The element's 'error': a reload from where it was, or, the retries spent, the failure's message. */
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

  /** The failure's 'Try again': the retries afresh, from a reload. */
  const tryAgain = (video: HTMLVideoElement | null) => {
    attempts.current = 0;
    setFailure(null);
    setPhase('loading');
    if (video) {
      video.load();
      void start();
    }
  };

  /** Playing again: a later error gets every retry. */
  const played = () => {
    attempts.current = 0;
  };

  /** Once a reloaded video knows its length: back to where the error stopped it. */
  const resume = (video: HTMLVideoElement) => {
    if (resumeAt.current > 0) {
      video.currentTime = resumeAt.current;
      resumeAt.current = 0;
    }
  };

  return { recover, tryAgain, played, resume };
}
