import { useState, type FormEvent } from 'react';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { PRICE_CHANGED_BEFORE_PAYMENT } from '#common/refunds.js';
import { appConfig } from '#client/lib/app-config.ts';
import { getStripe } from '#client/lib/stripe-loader.ts';
import { PAYMENT_ERROR_FALLBACK, type PaymentFormProps } from './payment-form-props';
import { PayButton, ProviderError } from './pay-button';

/** Where Stripe sends the buyer back after a redirect-based method; the page then records the purchase. */
export function stripeReturnUrl(videoId: number): string {
  return new URL(`/checkout/${videoId}`, window.location.origin).toString();
}

export function StripeCardForm(props: PaymentFormProps) {
  const publishableKey = appConfig.stripePublishableKey;
  if (!publishableKey) return <ProviderError message="Card payments are not configured." />;
  return (
    <Elements
      stripe={getStripe(publishableKey)}
      options={{
        clientSecret: props.clientSecret,
        appearance: {
          theme: 'stripe',
          variables: { colorPrimary: '#047857', borderRadius: '8px', fontFamily: 'system-ui, sans-serif' },
        },
      }}
    >
      <StripePaymentForm {...props} />
    </Elements>
  );
}

function StripePaymentForm({
  videoId,
  amount,
  onPaid,
  onPaymentError,
  onPriceChanged,
  recording,
}: PaymentFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [confirming, setConfirming] = useState(false);
  const [ready, setReady] = useState(false);
  const [providerError, setProviderError] = useState<string | null>(null);
  const busy = confirming || recording;

  const fail = (message: string) => {
    setProviderError(message);
    onPaymentError(message);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements || busy) return;
    setConfirming(true);
    setProviderError(null);
    try {
      // spec 4: confirm without leaving the page unless the chosen method needs a redirect.
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        redirect: 'if_required',
        confirmParams: { return_url: stripeReturnUrl(videoId) },
      });
      // PickReel canceled this intent when the capper changed the price; nothing was charged.
      if (error?.code === 'payment_intent_unexpected_state' && error.payment_intent?.status === 'canceled')
        onPriceChanged(PRICE_CHANGED_BEFORE_PAYMENT);
      else if (error) fail(error.message || PAYMENT_ERROR_FALLBACK);
      else if (paymentIntent.status === 'succeeded') onPaid(paymentIntent.id);
      else fail(PAYMENT_ERROR_FALLBACK);
    } catch (error) {
      fail(error instanceof Error && error.message ? error.message : PAYMENT_ERROR_FALLBACK);
    } finally {
      setConfirming(false);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} aria-label="Card payment" className="grid gap-5">
      <PaymentElement onReady={() => setReady(true)} options={{ layout: 'tabs' }} />
      <ProviderError message={providerError} />
      <PayButton amount={amount} busy={busy} disabled={!stripe || !elements || !ready} />
    </form>
  );
}
