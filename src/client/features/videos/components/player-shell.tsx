import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { X } from 'lucide-react';

type PlayerShellProps = {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** For tests and styling hooks: data-* attributes of the player's state. */
  data?: Record<`data-${string}`, string>;
};

/**
 * The frame every inline player sits in: named for screen readers, closed by its button or Escape, and
 * given focus when it replaces the play button that had it (spec 2: close returns to the thumbnail).
 */
export function PlayerShell({ title, onClose, children, data }: PlayerShellProps) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (document.activeElement === document.body || document.activeElement === null) {
      ref.current?.focus({ preventScroll: true });
    }
  }, []);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onClose();
  };

  return (
    <div
      ref={ref}
      role="group"
      aria-label={`${title} player`}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      className="group/player absolute inset-0 bg-black focus:outline-none"
      {...data}
    >
      {children}
      <button
        type="button"
        onClick={onClose}
        aria-label="Close player"
        title="Close player"
        className="absolute top-2 right-2 z-10 inline-flex size-9 cursor-pointer items-center justify-center rounded-full bg-ink/70 text-white ring-1 ring-white/20 hover:bg-ink"
      >
        <X aria-hidden className="size-5" />
      </button>
    </div>
  );
}
