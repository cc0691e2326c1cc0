import { LoaderCircle } from 'lucide-react';
import { formatDollars } from '#common/money.js';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#client/components/ui/dialog.tsx';
import { useDecidePayout } from '../api/decide-payout';
import type { AdminPayout } from '../api/get-admin-payouts';
import { useRetained } from './use-retained';

type RejectPayoutDialogProps = {
  payout: AdminPayout | null;
  onClose: () => void;
  onCloseAutoFocus: (event: Event) => void;
};

/** A rejection cannot be taken back (the request leaves 'pending' for good), so it is confirmed first. */
export function RejectPayoutDialog({ payout, onClose, onCloseAutoFocus }: RejectPayoutDialogProps) {
  const shown = useRetained(payout);
  const decide = useDecidePayout();

  return (
    <Dialog
      open={payout !== null}
      onOpenChange={(open) => {
        if (!open && !decide.isPending) onClose();
      }}
    >
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Reject Payout Request</DialogTitle>
          <DialogDescription>
            {shown
              ? `Reject ${shown.username}'s request for ${formatDollars(shown.amount)}? The amount returns to their available balance. This cannot be undone.`
              : null}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={decide.isPending}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            disabled={decide.isPending}
            onClick={() => {
              if (payout) decide.mutate({ payout, status: 'rejected' }, { onSuccess: onClose });
            }}
          >
            {decide.isPending ? (
              <>
                <LoaderCircle aria-hidden className="animate-spin" />
                Rejecting...
              </>
            ) : (
              'Reject'
            )}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
