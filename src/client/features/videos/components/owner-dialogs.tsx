import type { RefObject } from 'react';
import { LoaderCircle } from 'lucide-react';
import { PRODUCT_NAME } from '#common/constants.js';
import { formatDollars } from '#common/money.js';
import type { Video } from '#common/schemas/videos.js';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogConfirm,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '#client/components/ui/alert-dialog.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#client/components/ui/dialog.tsx';
import { buttonClasses } from '#client/components/ui/button.tsx';
import { useDeleteVideo } from '../api/delete-video';

type DialogProps = {
  video: Video;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** These dialogs are opened without a Radix trigger (they load on first use), so focus is handed back by hand. */
  returnFocusTo: RefObject<HTMLElement | null>;
};

const restoreFocus = (target: RefObject<HTMLElement | null>) => (event: Event) => {
  event.preventDefault();
  target.current?.focus();
};

/** spec 2: the owner's view of what buyers unlock: the winning selections, the price (two decimals), the category. */
export function SelectionsDialog({ video, open, onOpenChange, returnFocusTo }: DialogProps) {
  const selections = video.emailInformation?.trim();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={restoreFocus(returnFocusTo)}>
        <DialogHeader>
          <DialogTitle>Winning Selections</DialogTitle>
          <DialogDescription>{video.title}</DialogDescription>
        </DialogHeader>
        <div className="max-h-72 overflow-y-auto rounded-lg border bg-muted/60 p-4 text-sm leading-relaxed whitespace-pre-wrap">
          {selections || (
            <span className="text-muted-foreground">No winning selections provided for this video.</span>
          )}
        </div>
        <dl className="grid grid-cols-2 gap-3 text-sm">
          <div className="grid gap-0.5">
            <dt className="text-muted-foreground">Price</dt>
            <dd className="font-semibold tabular-nums">{formatDollars(video.price)}</dd>
          </div>
          <div className="grid gap-0.5">
            <dt className="text-muted-foreground">Category</dt>
            <dd className="font-semibold">{video.category}</dd>
          </div>
        </dl>
        <DialogFooter>
          <DialogClose className={buttonClasses('outline', 'md')}>Close</DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

type DeleteDialogProps = DialogProps & { onDeleted?: () => void };

export const KEPT_ON_RECORD_TEXT =
  'This pick has been sold or has started: deleting takes it off sale, but it stays graded and listed on your record.';

/**
 * A sealed pick that is sold or has started cannot vanish from the record. The dialog knows the
 * status, not the sales: an open pick is told what happens if it has been bought.
 */
function DeleteRecordNote({ pick }: { pick: Video['pick'] }) {
  if (!pick) return null;
  if (pick.status !== 'open') {
    return (
      <p
        className="rounded-lg border border-accent/60 bg-accent/10 p-3 font-medium text-foreground"
        data-testid="delete-record-note"
      >
        {KEPT_ON_RECORD_TEXT}
      </p>
    );
  }
  return (
    <p data-testid="delete-record-note">
      If anyone has bought this pick, deleting takes it off sale, but it stays graded and listed on your
      record.
    </p>
  );
}

/** spec 2 and 8: asks first, then deletes with the spec's toasts (raised by useDeleteVideo). */
export function DeleteVideoDialog({
  video,
  open,
  onOpenChange,
  returnFocusTo,
  onDeleted,
}: DeleteDialogProps) {
  const deletion = useDeleteVideo();
  // Closed either way: a failure's toast must not sit behind a modal that hides it from screen readers.
  const confirm = () =>
    deletion.mutate(video.id, {
      onSettled: () => onOpenChange(false),
      onSuccess: () => onDeleted?.(),
    });

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        // While the request runs the answer is on its way: Escape must not pretend it was cancelled.
        if (!deletion.isPending) onOpenChange(next);
      }}
    >
      <AlertDialogContent onCloseAutoFocus={restoreFocus(returnFocusTo)}>
        <AlertDialogHeader>
          <AlertDialogTitle>Are you sure you want to delete this video?</AlertDialogTitle>
          {/* One description, the record's note included, so a screen reader reads it with the question. */}
          <AlertDialogDescription asChild>
            <div className="grid gap-3">
              <p>
                &ldquo;{video.title}&rdquo; will be removed from {PRODUCT_NAME} for everyone. This cannot be
                undone.
              </p>
              <DeleteRecordNote pick={video.pick} />
            </div>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={deletion.isPending}>Cancel</AlertDialogCancel>
          <AlertDialogConfirm onClick={confirm} disabled={deletion.isPending}>
            {deletion.isPending ? (
              <>
                <LoaderCircle aria-hidden className="animate-spin" />
                Deleting...
              </>
            ) : (
              'Delete'
            )}
          </AlertDialogConfirm>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
