import { useState, type SyntheticEvent } from 'react';
import { playbackTime, type PlaybackTime } from './video-element';

export type PlayerPhase = 'checking' | 'loading' | 'playing' | 'paused' | 'ended';

type VideoEvent = SyntheticEvent<HTMLVideoElement>;

/** What the <video> element reports (phase, buffering, sound, time), kept as state for the controls. */
export function useVideoState(verify: boolean) {
  const [phase, setPhase] = useState<PlayerPhase>(verify ? 'checking' : 'loading');
  const [muted, setMuted] = useState(false);
  const [buffering, setBuffering] = useState(false);
  const [time, setTime] = useState<PlaybackTime>({ current: 0, duration: 0 });

  /** The element's events that only update this state. */
  const events = {
    onPause: (event: VideoEvent) => {
      if (!event.currentTarget.ended) setPhase('paused');
    },
    onEnded: () => setPhase('ended'),
    onWaiting: () => setBuffering(true),
    onCanPlay: () => setBuffering(false),
    onVolumeChange: (event: VideoEvent) => setMuted(event.currentTarget.muted),
    onTimeUpdate: (event: VideoEvent) => setTime(playbackTime(event.currentTarget)),
  };

  const playing = () => {
    setBuffering(false);
    setPhase('playing');
  };
  const showTime = (video: HTMLVideoElement) => setTime(playbackTime(video));

  return { phase, setPhase, muted, buffering, time, events, playing, showTime };
}
