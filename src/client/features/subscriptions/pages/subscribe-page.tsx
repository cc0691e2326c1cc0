import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { Card } from '#client/components/ui/card.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { toast } from '#client/components/ui/use-toast.ts';
import { appConfig } from '#client/lib/app-config.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { usePlans } from '../api/plans';
import { useSubscribe } from '../api/subscriptions';
import { formatDay, planPrice, planTrial } from '../components/plan-format';
import { SubscriptionCardForm } from '../components/subscription-card-form';

// Stripe.js loads only when Stripe takes the payments (docs/decisions/040).
const StripeSubscribeForm = lazy(async () => ({
  default: (await import('../components/stripe-subscribe-form')).StripeSubscribeForm,
}));

/** Checkout for a plan: what it costs and covers, then the sandbox card form. */
export function SubscribePage() {
  const { username = '', planId = '' } = useParams<{ username: string; planId: string }>();
  const id = Number(planId);
  const { data: plans, isPending } = usePlans(username);
  const plan = plans?.find((candidate) => candidate.id === id && candidate.active);
  const subscribe = useSubscribe(id);
  const [, navigate] = useLocation();
  const [error, setError] = useState<string | null>(null);
  useDocumentTitle(plan ? `Subscribe to ${plan.name}` : 'Subscribe');

  return (
    <div className="mx-auto grid w-full max-w-lg gap-6 px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Subscribe</h1>
      {isPending ? (
        <Skeleton className="h-40 rounded-card" />
      ) : !plan ? (
        <p role="alert" className="text-muted-foreground">
          This plan is not available.{' '}
          <Link
            href={`/cappers/${encodeURIComponent(username)}`}
            className="font-medium text-primary underline"
          >
            Back to the capper
          </Link>
        </p>
      ) : (
        <>
          <Card className="grid gap-2 p-5" aria-label="Plan">
            <p className="font-semibold [overflow-wrap:anywhere]">
              {plan.name} <span className="font-normal text-muted-foreground">by @{plan.capperUsername}</span>
            </p>
            <p className="text-2xl font-bold tabular-nums">{planPrice(plan)}</p>
            <p className="text-sm text-muted-foreground">
              Every pick in {plan.leagues.join(', ')}, renewing until you cancel.
            </p>
            {planTrial(plan) && (
              <p className="text-sm font-medium text-primary">
                {planTrial(plan)} (your first with this capper): nothing is charged until it ends.
              </p>
            )}
          </Card>
          {appConfig.paymentProvider === 'stripe' ? (
            <Suspense fallback={<Skeleton className="h-40 rounded-card" />}>
              <StripeSubscribeForm
                planId={plan.id}
                submitLabel={`Subscribe for ${planPrice(plan)}`}
                onConfirmed={(trial) => {
                  toast({
                    title: trial ? 'Card saved' : 'Payment confirmed',
                    description: 'Your subscription appears here as soon as Stripe confirms it.',
                    variant: 'success',
                  });
                  navigate('/subscriptions');
                }}
              />
            </Suspense>
          ) : (
            <SubscriptionCardForm
              submitLabel={`Subscribe for ${planPrice(plan)}`}
              busy={subscribe.isPending}
              error={error}
              onSubmit={(card) => {
                setError(null);
                subscribe.mutate(
                  { card },
                  {
                    onSuccess: (subscription) => {
                      toast({
                        title: 'Subscribed',
                        description:
                          subscription.status === 'trialing'
                            ? `Free until ${formatDay(subscription.trialEnd)}.`
                            : `Renews ${formatDay(subscription.nextRenewal)}.`,
                        variant: 'success',
                      });
                      navigate('/subscriptions');
                    },
                    onError: (failure) => setError(errorMessage(failure)),
                  },
                );
              }}
            />
          )}
        </>
      )}
    </div>
  );
}
