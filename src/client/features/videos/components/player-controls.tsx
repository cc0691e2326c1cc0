import type { ReactNode } from 'react';
import { Maximize, Pause, Play, Volume2, VolumeX } from 'lucide-react';
import { cn } from '#client/lib/cn.ts';
import { formatDuration } from '#client/lib/format.ts';
import type { PlaybackTime } from './video-element';

type PlayerControlsProps = {
  playing: boolean;
  /** The file is there and nothing failed: the controls work. */
  ready: boolean;
  muted: boolean;
  time: PlaybackTime;
  onTogglePlay: () => void;
  onToggleMute: () => void;
  onSeek: (seconds: number) => void;
  onFullScreen: () => void;
};

/** The file player's bar: play/pause, mute, seek with the position, full screen (spec 2, 4). */
export function PlayerControls({
  playing,
  ready,
  muted,
  time,
  onTogglePlay,
  onToggleMute,
  onSeek,
  onFullScreen,
}: PlayerControlsProps) {
  const position = `${formatDuration(time.current)} / ${formatDuration(time.duration)}`;
  return (
    <div
      className={cn(
        'absolute inset-x-0 bottom-0 flex items-center gap-1 bg-linear-to-t from-black/85 to-transparent px-2 pt-8 pb-2 text-white',
        'transition-opacity',
        // Out of the way while the video plays and the pointer is elsewhere; always there for keyboards.
        playing && 'opacity-0 group-hover/player:opacity-100 group-focus-within/player:opacity-100',
      )}
    >
      <ControlButton label={playing ? 'Pause' : 'Play'} onClick={onTogglePlay} disabled={!ready}>
        {playing ? (
          <Pause aria-hidden className="fill-current" />
        ) : (
          <Play aria-hidden className="fill-current" />
        )}
      </ControlButton>
      <ControlButton label={muted ? 'Unmute' : 'Mute'} onClick={onToggleMute} disabled={!ready}>
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
        onChange={(event) => onSeek(Number(event.target.value))}
        className="mx-1 h-1 min-w-0 flex-1 cursor-pointer accent-emerald-400 disabled:cursor-default disabled:opacity-40"
      />
      <span className="hidden px-1 text-xs font-medium whitespace-nowrap tabular-nums sm:inline">
        {position}
      </span>
      <ControlButton label="Full screen" onClick={onFullScreen} disabled={!ready}>
        <Maximize aria-hidden />
      </ControlButton>
    </div>
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
