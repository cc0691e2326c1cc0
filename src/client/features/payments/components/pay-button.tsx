import { AlertCircle, LoaderCircle, Lock } from 'lucide-react';
import { formatPrice } from '#common/money.js';
import { Button } from '#client/components/ui/button.tsx';

/** Says the amount the card is charged: the intent's, as the order summary shows it (decisions 'Money'). */
export function PayButton({
  amount,
  busy,
  disabled = false,
}: {
  amount: number;
  busy: boolean;
  disabled?: boolean;
}) {
  return (
    <Button type="submit" size="lg" className="w-full" disabled={busy || disabled}>
      {busy ? (
        <>
          <LoaderCircle aria-hidden className="animate-spin" />
          Processing...
        </>
      ) : (
        <>
          <Lock aria-hidden />
          Pay {formatPrice(amount)}
        </>
      )}
    </Button>
  );
}

/** The provider's last refusal, kept beside the form after the toast has gone. */
export function ProviderError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    // Not a live region: the toast already announced it (spec 8); this copy stays for reading afterwards.
    <p
      data-testid="payment-error"
      className="flex items-start gap-2 rounded-lg border border-destructive/30 bg-destructive/5 p-3 text-sm font-medium text-destructive"
    >
      <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
      {message}
    </p>
  );
}
