import { useState, type FormEvent } from 'react';
import { errorMessage, errorStatus } from '#client/lib/error-message.ts';
import { useConfirmSandboxPayment } from '../api/confirm-sandbox-payment';
import { PAYMENT_ERROR_FALLBACK, type PaymentFormProps } from './payment-form-props';
import { PayButton, ProviderError } from './pay-button';
import { SandboxCardFields, useSandboxCard } from './sandbox-card-fields';

/**
 * The built-in provider's card form (docs/product-decisions.md 'Payments'): it sends the card to the sandbox the way
 * Stripe.js would send it to Stripe, and follows Stripe's test cards. Nothing is ever charged.
 */
export function SandboxCardForm({
  clientSecret,
  amount,
  onPaid,
  onPaymentError,
  onPriceChanged,
  recording,
}: PaymentFormProps) {
  const confirm = useConfirmSandboxPayment();
  const card = useSandboxCard();
  const [providerError, setProviderError] = useState<string | null>(null);

  const busy = confirm.isPending || recording;

  const fail = (message: string) => {
    setProviderError(message);
    onPaymentError(message);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const entered = card.read();
    if (!entered) return;
    setProviderError(null);
    confirm.mutate(
      { clientSecret, card: entered },
      {
        onSuccess: (result) => {
          if (result.status === 'succeeded') onPaid(result.paymentIntentId);
          else fail(result.error?.message || PAYMENT_ERROR_FALLBACK);
        },
        onError: (error) => {
          // The capper changed the price after this page showed it; nothing was charged.
          if (errorStatus(error) === 409) onPriceChanged(errorMessage(error, PAYMENT_ERROR_FALLBACK));
          else fail(errorMessage(error, PAYMENT_ERROR_FALLBACK));
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Card payment" className="grid gap-5">
      <SandboxCardFields
        fields={card.fields}
        refs={card.refs}
        busy={busy}
        testCards={
          <>
            Test card <span className="font-mono whitespace-nowrap">4242 4242 4242 4242</span> with any future
            date and any CVC succeeds;{' '}
            <span className="font-mono whitespace-nowrap">4000 0000 0000 0002</span> is declined.
          </>
        }
      />
      <ProviderError message={providerError} />
      <PayButton amount={amount} busy={busy} />
    </form>
  );
}
