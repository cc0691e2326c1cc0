import { useRef, useState, type FormEvent } from 'react';
import { LoaderCircle } from 'lucide-react';
import type { AdminUser } from '#common/schemas/admin.js';
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
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { toast } from '#client/components/ui/use-toast.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { useUpdateManualEarnings } from '../api/update-manual-earnings';
import { useRetained } from './use-retained';

const INVALID_NUMBER = 'Please enter a valid number for earnings';

type EarningsDialogProps = {
  user: AdminUser | null;
  onClose: () => void;
  onCloseAutoFocus: (event: Event) => void;
};

export function EarningsDialog({ user, onClose, onCloseAutoFocus }: EarningsDialogProps) {
  const shown = useRetained(user);
  const update = useUpdateManualEarnings();

  return (
    <Dialog
      open={user !== null}
      onOpenChange={(open) => {
        if (!open && !update.isPending) onClose();
      }}
    >
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Update Manual Earnings</DialogTitle>
          <DialogDescription>
            Set the manual earnings amount for this user. This will be added to their total available balance
            for payouts.
          </DialogDescription>
        </DialogHeader>
        {shown && (
          // Keyed by user: each opening starts from that user's value, with no message left over.
          <EarningsForm
            key={shown.id}
            user={shown}
            pending={update.isPending}
            onCancel={onClose}
            onSubmit={(manualEarnings, onFailure) =>
              update.mutate(
                { userId: shown.id, manualEarnings },
                { onSuccess: onClose, onError: (error) => onFailure(errorMessage(error)) },
              )
            }
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

type EarningsFormProps = {
  user: AdminUser;
  pending: boolean;
  onCancel: () => void;
  onSubmit: (manualEarnings: number, onFailure: (message: string) => void) => void;
};

function EarningsForm({ user, pending, onCancel, onSubmit }: EarningsFormProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  // Besides the toasts of spec 8: a modal dialog hides the rest of the page from screen readers, the
  // notifications too, so the reason is also written under the field.
  const [fieldError, setFieldError] = useState<string>();
  const fail = (message: string) => {
    setFieldError(message);
    inputRef.current?.focus();
  };

  // spec 5 'Admin earnings': a value that does not parse → message, nothing sent; empty → nothing at all;
  // min 0 is not enforced here (noValidate), the server refuses negatives and its message is shown.
  // Not react-hook-form: the rule needs the field's badInput flag (a number field reports "1-2" as ''),
  // the only way to tell a typo from an empty field.
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = inputRef.current;
    if (!input || pending) return;
    const raw = input.value.trim();
    if (raw === '' && !input.validity.badInput) return;
    const manualEarnings = Number(raw);
    if (raw === '' || !Number.isFinite(manualEarnings)) {
      toast({ title: 'Invalid amount', description: INVALID_NUMBER, variant: 'destructive' });
      fail(INVALID_NUMBER);
      return;
    }
    setFieldError(undefined);
    onSubmit(manualEarnings, fail);
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <FormField
        label="Earnings Amount ($)"
        error={fieldError}
        hint={`${user.username} currently has ${formatDollars(user.manualEarnings ?? 0)} in manual earnings.`}
      >
        <Input
          ref={inputRef}
          name="manualEarnings"
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0"
          placeholder="0.00"
          defaultValue={(user.manualEarnings ?? 0).toFixed(2)}
          onChange={() => setFieldError(undefined)}
        />
      </FormField>
      <DialogFooter>
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? (
            <>
              <LoaderCircle aria-hidden className="animate-spin" />
              Updating...
            </>
          ) : (
            'Update Earnings'
          )}
        </Button>
      </DialogFooter>
    </form>
  );
}
