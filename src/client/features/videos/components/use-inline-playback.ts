import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { PLAY_START_DELAY_MS } from '#common/constants.js';

export type PlaybackPhase = 'idle' | 'starting' | 'playing';

export type InlinePlayback = {
  phase: PlaybackPhase;
  /** spec 2: the player takes over about 100 ms after the press. */
  play: () => void;
  /** Back to the thumbnail; focus returns to the play button. */
  close: () => void;
  /** The play button's id, so focus can return to it after close. */
  playButtonId: string;
};

/** The thumbnail ⇄ inline player state, shared by the play button and the owner's 'Watch'. */
export function useInlinePlayback(prefetch: () => void): InlinePlayback {
  const [phase, setPhase] = useState<PlaybackPhase>('idle');
  const playButtonId = useId();
  const refocus = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  useEffect(() => {
    if (phase !== 'idle' || !refocus.current) return;
    refocus.current = false;
    document.getElementById(playButtonId)?.focus();
  }, [phase, playButtonId]);

  const play = useCallback(() => {
    prefetch();
    clearTimeout(timer.current);
    setPhase('starting');
    timer.current = setTimeout(() => setPhase('playing'), PLAY_START_DELAY_MS);
  }, [prefetch]);

  const close = useCallback(() => {
    clearTimeout(timer.current);
    refocus.current = true;
    setPhase('idle');
  }, []);

  return { phase, play, close, playButtonId };
}
