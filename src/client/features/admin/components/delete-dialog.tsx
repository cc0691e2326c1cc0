import { LoaderCircle } from 'lucide-react';
import type { AdminUser } from '#common/schemas/admin.js';
import type { Video } from '#common/schemas/videos.js';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#client/components/ui/dialog.tsx';
import { useDeleteAdminUser } from '../api/delete-admin-user';
import { useDeleteAdminVideo } from '../api/delete-admin-video';
import { useRetained } from './use-retained';

/** spec 4: the delete dialog is in 'video' mode or 'user' mode. */
export type DeleteTarget = { kind: 'video'; video: Video } | { kind: 'user'; user: AdminUser };

const TEXT = {
  video: 'Are you sure you want to delete this video? This action cannot be undone.',
  user: 'Are you sure you want to delete this user? This will also delete all their videos and purchases. This action cannot be undone.',
} as const;

type DeleteDialogProps = {
  target: DeleteTarget | null;
  /** Clears the selection; called on Cancel, on Escape and after a successful deletion. */
  onClose: () => void;
  onCloseAutoFocus: (event: Event) => void;
};

export function DeleteDialog({ target, onClose, onCloseAutoFocus }: DeleteDialogProps) {
  const shown = useRetained(target);
  const deleteVideo = useDeleteAdminVideo();
  const deleteUser = useDeleteAdminUser();
  const pending = deleteVideo.isPending || deleteUser.isPending;

  const confirm = () => {
    if (!target) return;
    // spec 4: after a successful action the dialog closes and the selection clears; after a failure it stays
    // open, the toast says why, and Cancel is right there.
    if (target.kind === 'video') deleteVideo.mutate(target.video.id, { onSuccess: onClose });
    else deleteUser.mutate(target.user.id, { onSuccess: onClose });
  };

  return (
    <Dialog
      open={target !== null}
      onOpenChange={(open) => {
        // A deletion under way cannot be walked away from; its outcome arrives as a toast.
        if (!open && !pending) onClose();
      }}
    >
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Confirm Deletion</DialogTitle>
          <DialogDescription>{shown ? TEXT[shown.kind] : null}</DialogDescription>
        </DialogHeader>
        {shown && (
          <p className="rounded-lg bg-muted px-3 py-2 text-sm break-words">
            {shown.kind === 'video' ? (
              <>
                Video <span className="font-semibold">{shown.video.title}</span> (ID {shown.video.id})
              </>
            ) : (
              <>
                User <span className="font-semibold">{shown.user.username}</span> (ID {shown.user.id})
              </>
            )}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={confirm} disabled={pending}>
            {pending ? (
              <>
                <LoaderCircle aria-hidden className="animate-spin" />
                Deleting...
              </>
            ) : (
              'Delete'
            )}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
