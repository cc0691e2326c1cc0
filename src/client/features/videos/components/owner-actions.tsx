import { lazy, Suspense, useRef, useState } from 'react';
import { Link } from 'wouter';
import { ListChecks, Pencil, Play, Trash2 } from 'lucide-react';
import type { Video } from '#common/schemas/videos.js';
import { Button, buttonClasses } from '#client/components/ui/button.tsx';
import { cn } from '#client/lib/cn.ts';

// The dialogs (Radix Dialog and AlertDialog, focus and scroll locking, the delete call) load on first use:
// most visitors own nothing, and the home page's JavaScript budget has no room for them.
const loadDialogs = () => import('./owner-dialogs');
const SelectionsDialog = lazy(async () => ({ default: (await loadDialogs()).SelectionsDialog }));
const DeleteVideoDialog = lazy(async () => ({ default: (await loadDialogs()).DeleteVideoDialog }));
const prefetch = () => void loadDialogs().catch(() => undefined);

type OwnerActionsProps = {
  video: Video;
  /** 'Watch' starts inline playback; left out where the player is already the page's focus. */
  onWatch?: () => void;
  /** After a deletion, e.g. leave the video's own page. */
  onDeleted?: () => void;
  /** The 'Winning Selections' dialog; left out where the selections are on the page already. */
  withSelections?: boolean;
  size?: 'sm' | 'md';
  /** The id of the video's title, so each button is described by it ("Edit", for which video?). */
  describedBy?: string;
  className?: string;
};

type OpenDialog = 'selections' | 'delete' | null;

/** spec 2: the owner's 'Watch', 'Winning Selections', edit and delete. */
export function OwnerActions({
  video,
  onWatch,
  onDeleted,
  withSelections = true,
  size = 'sm',
  describedBy,
  className,
}: OwnerActionsProps) {
  const [open, setOpen] = useState<OpenDialog>(null);
  // Once loaded a dialog stays mounted, so it can animate closed.
  const [mounted, setMounted] = useState<{ selections: boolean; delete: boolean }>({
    selections: false,
    delete: false,
  });
  const selectionsButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);

  const show = (dialog: Exclude<OpenDialog, null>) => {
    setMounted((current) => ({ ...current, [dialog]: true }));
    setOpen(dialog);
  };
  const onOpenChange = (next: boolean) => {
    if (!next) setOpen(null);
  };

  return (
    <div className={cn('flex flex-wrap items-center gap-2', className)}>
      {onWatch && (
        <Button size={size} onClick={onWatch} aria-describedby={describedBy}>
          <Play aria-hidden className="fill-current" />
          Watch
        </Button>
      )}
      {withSelections && (
        <Button
          ref={selectionsButton}
          size={size}
          variant="secondary"
          onPointerEnter={prefetch}
          onFocus={prefetch}
          onClick={() => show('selections')}
          aria-haspopup="dialog"
          aria-describedby={describedBy}
        >
          <ListChecks aria-hidden />
          Winning Selections
        </Button>
      )}
      <Link
        href={`/edit-video/${video.id}`}
        className={buttonClasses('outline', size)}
        aria-describedby={describedBy}
      >
        <Pencil aria-hidden />
        Edit
      </Link>
      <Button
        ref={deleteButton}
        size={size}
        variant="outline"
        className="text-destructive hover:bg-destructive/10"
        onPointerEnter={prefetch}
        onFocus={prefetch}
        onClick={() => show('delete')}
        aria-haspopup="dialog"
        aria-describedby={describedBy}
      >
        <Trash2 aria-hidden />
        Delete
      </Button>
      <Suspense fallback={null}>
        {mounted.selections && (
          <SelectionsDialog
            video={video}
            open={open === 'selections'}
            onOpenChange={onOpenChange}
            returnFocusTo={selectionsButton}
          />
        )}
        {mounted.delete && (
          <DeleteVideoDialog
            video={video}
            open={open === 'delete'}
            onOpenChange={onOpenChange}
            returnFocusTo={deleteButton}
            onDeleted={onDeleted}
          />
        )}
      </Suspense>
    </div>
  );
}
