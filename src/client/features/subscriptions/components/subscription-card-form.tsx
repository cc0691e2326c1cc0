import type { FormEvent } from 'react';
import type { Subscribe } from '#common/schemas/subscriptions.js';
import { Button } from '#client/components/ui/button.tsx';
import { SandboxCardFields, useSandboxCard } from '#client/features/payments/index.ts';

/**
 * The sandbox card form for a subscription: the card is saved with the sandbox, as Stripe.js would save it
 * with Stripe; whether it pays is the provider's to say. Same test cards as the single-pick checkout.
 */
export function SubscriptionCardForm({
  submitLabel,
  busyLabel = 'Subscribing…',
  busy,
  error,
  onSubmit,
}: {
  submitLabel: string;
  busyLabel?: string;
  busy: boolean;
  error: string | null;
  onSubmit: (card: Subscribe['card']) => void;
}) {
  const card = useSandboxCard();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const entered = card.read();
    if (entered) onSubmit(entered);
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Card for the subscription" className="grid gap-5">
      <SandboxCardFields
        fields={card.fields}
        refs={card.refs}
        busy={busy}
        testCards={
          <>
            Test card <span className="font-mono whitespace-nowrap">4242 4242 4242 4242</span> with any future
            date and any CVC pays; <span className="font-mono whitespace-nowrap">4000 0000 0000 0002</span> is
            declined; <span className="font-mono whitespace-nowrap">4000 0000 0000 0341</span> is saved but
            its renewals fail.
          </>
        }
      />
      {error && (
        <p
          role="alert"
          className="rounded-lg border border-destructive/30 bg-destructive/5 p-3 text-sm font-medium text-destructive"
        >
          {error}
        </p>
      )}
      <Button type="submit" size="lg" disabled={busy} aria-busy={busy} className="w-full">
        {busy ? busyLabel : submitLabel}
      </Button>
    </form>
  );
}
