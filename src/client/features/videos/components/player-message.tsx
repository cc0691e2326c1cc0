import type { ReactNode } from 'react';
import { AlertTriangle } from 'lucide-react';

export type PlayerMessageText = { title?: string; text: string };

// spec 8 'Video playback and display'.
export const VIDEO_UNAVAILABLE: PlayerMessageText = {
  title: 'Video Unavailable',
  text: 'This video is currently unavailable. It may have been removed or is still processing.',
};
export const NETWORK_ERROR: PlayerMessageText = {
  title: 'Network Error',
  text: "We couldn't verify if this video exists. Please check your connection.",
};
export const PLAYBACK_ERROR: PlayerMessageText = {
  title: 'Playback Error',
  text: 'There was an issue playing this video. Please try again later.',
};

/** A player's failure, read out as it appears (role="alert"), over the player's area. */
export function PlayerMessage({ message, children }: { message: PlayerMessageText; children?: ReactNode }) {
  return (
    <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-ink/90 p-5 text-center text-white">
      <AlertTriangle aria-hidden className="size-8 shrink-0 text-amber-300" />
      <p role="alert" className="max-w-sm text-sm leading-relaxed">
        {message.title && <strong className="font-semibold">{message.title}: </strong>}
        {message.text}
      </p>
      {children}
    </div>
  );
}
