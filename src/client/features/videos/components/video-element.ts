// What the file player does to its <video> element, apart from React's state (file-player.tsx).

const errorName = (error: unknown) => (error instanceof DOMException ? error.name : '');

/**
 * Starts playback: 'playing', 'interrupted' (a close, a reload, or a media error the element's 'error' event
 * handles), or 'refused' (the browser would not play it, for any other reason).
 */
export async function playVideo(video: HTMLVideoElement): Promise<'playing' | 'interrupted' | 'refused'> {
  let failed: unknown;
  try {
    await video.play();
    return 'playing';
  } catch (error) {
    failed = error;
  }
  // spec 2: autoplay blocked (no sound without a gesture the browser counts) → play muted instead.
  if (errorName(failed) === 'NotAllowedError' && !video.muted) {
    video.muted = true;
    try {
      await video.play();
      return 'playing';
    } catch (error) {
      failed = error;
    }
  }
  // Interrupted by close or a reload (AbortError), or a media error the 'error' event is handling.
  if (errorName(failed) === 'AbortError' || errorName(failed) === 'NotSupportedError' || video.error)
    return 'interrupted';
  return 'refused';
}

export function enterFullScreen(video: HTMLVideoElement): void {
  // iOS Safari has no element full screen for <video>, only its own player's.
  const webkit = video as HTMLVideoElement & { webkitEnterFullscreen?: () => void };
  if (video.requestFullscreen) video.requestFullscreen().catch(() => undefined);
  else webkit.webkitEnterFullscreen?.();
}

export type PlaybackTime = { current: number; duration: number };

/** Where playback is and how long the video is (0 until the duration is known). */
export function playbackTime(video: HTMLVideoElement): PlaybackTime {
  return {
    current: video.currentTime,
    duration: Number.isFinite(video.duration) ? video.duration : 0,
  };
}
