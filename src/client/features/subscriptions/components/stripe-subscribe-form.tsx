import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { StripeSubscribeResponse } from '#common/schemas/billing.js';
import { Button } from '#client/components/ui/button.tsx';
import { appConfig } from '#client/lib/app-config.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { getStripe } from '#client/lib/stripe-loader.ts';
import { refreshStripeSubscription, startStripeSubscription } from '../api/billing';
import { SUBSCRIPTIONS_QUERY_KEY } from '../api/subscriptions';

const FALLBACK = 'The payment could not be completed. Try again or use another card.';

const returnUrl = () => new URL('/subscriptions', window.location.origin).toString();

/**
 * Subscribing with Stripe Billing (docs/decisions/041): the server starts an incomplete subscription, then
 * the Payment Element confirms its first payment, or in a trial with nothing due saves the card (a setup).
 * Imported lazily, only when Stripe is the provider.
 */
export function StripeSubscribeForm({
  planId,
  submitLabel,
  onConfirmed,
}: {
  planId: number;
  submitLabel: string;
  onConfirmed: (trial: boolean) => void;
}) {
  const [started, setStarted] = useState<StripeSubscribeResponse | null>(null);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const publishableKey = appConfig.stripePublishableKey;
  if (!publishableKey)
    return (
      <p role="alert" className="text-destructive">
        Card payments are not configured.
      </p>
    );
  if (!started)
    return (
      <div className="grid gap-3">
        {error && (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
        <Button
          disabled={starting}
          onClick={() => {
            setStarting(true);
            setError(null);
            startStripeSubscription(planId)
              .then(setStarted)
              .catch((failure: unknown) => setError(errorMessage(failure)))
              .finally(() => setStarting(false));
          }}
        >
          {starting ? 'Starting…' : 'Continue to payment'}
        </Button>
      </div>
    );
  return (
    <Elements
      stripe={getStripe(publishableKey)}
      options={{ clientSecret: started.clientSecret, appearance: { theme: 'stripe' } }}
    >
      <ConfirmForm started={started} submitLabel={submitLabel} onConfirmed={onConfirmed} />
    </Elements>
  );
}

function ConfirmForm({
  started,
  submitLabel,
  onConfirmed,
}: {
  started: StripeSubscribeResponse;
  submitLabel: string;
  onConfirmed: (trial: boolean) => void;
}) {
  const stripe = useStripe();
  const elements = useElements();
  const queryClient = useQueryClient();
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements || busy) return;
    setBusy(true);
    setError(null);
    try {
      const confirmParams = { return_url: returnUrl() };
      const result =
        started.intentType === 'setup'
          ? await stripe.confirmSetup({ elements, redirect: 'if_required', confirmParams })
          : await stripe.confirmPayment({ elements, redirect: 'if_required', confirmParams });
      if (result.error) setError(result.error.message || FALLBACK);
      else {
        // Written at once if Stripe has it live; otherwise the webhook writes it a moment later.
        await refreshStripeSubscription(started.providerSubscriptionId).catch(() => undefined);
        void queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_QUERY_KEY });
        void queryClient.invalidateQueries({ queryKey: ['/api/videos'] });
        onConfirmed(started.intentType === 'setup');
      }
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : FALLBACK);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} aria-label="Card payment" className="grid gap-5">
      <PaymentElement onReady={() => setReady(true)} options={{ layout: 'tabs' }} />
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <Button type="submit" disabled={!stripe || !elements || !ready || busy}>
        {busy ? 'Confirming…' : submitLabel}
      </Button>
    </form>
  );
}
