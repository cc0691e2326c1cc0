import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { centsToDollars, formatDollars, formatPrice } from '#common/money.js';
import { PROMO_MESSAGES, type PromoQuote } from '#common/schemas/promos.js';
import type { Plan } from '#common/schemas/subscriptions.js';
import { Card } from '#client/components/ui/card.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { toast } from '#client/components/ui/use-toast.ts';
import { appConfig } from '#client/lib/app-config.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { PromoCodeField } from '#client/features/payments/index.ts';
import { usePlans } from '../api/plans';
import { useSubscribe } from '../api/subscriptions';
import { formatDay, perPeriod, planPrice, planTrial } from '../components/plan-format';
import { SubscriptionCardForm } from '../components/subscription-card-form';

const PROMO_REFUSALS: readonly string[] = Object.values(PROMO_MESSAGES);

/**
 * The plan's price with a promo code (decision 039): the struck list price and the first paid period's, then
 * what each later period costs (`once`: the list price again; `forever`: the discounted one).
 */
function PromoPrice({ plan, quote }: { plan: Plan; quote: PromoQuote }) {
  const per = perPeriod(plan);
  const first = quote.price ?? centsToDollars(plan.priceCents);
  return (
    <div className="grid gap-1" data-testid="plan-promo-price">
      <p className="text-2xl font-bold tabular-nums">
        <s className="mr-2 text-lg font-medium text-muted-foreground">
          <span className="sr-only">Was </span>
          {formatPrice(centsToDollars(plan.priceCents))}
        </s>
        <span className="sr-only">now </span>
        {formatDollars(first)}
        <span className="text-base font-medium text-muted-foreground"> / {per}</span>
      </p>
      <p className="text-sm text-emerald-700">
        {quote.duration === 'forever'
          ? `Code ${quote.code}: ${formatDollars(quote.discount ?? 0)} off every ${per} while you stay subscribed.`
          : `Code ${quote.code}: ${formatDollars(quote.discount ?? 0)} off your first paid ${per}, then ${formatDollars(quote.renewalPrice ?? centsToDollars(plan.priceCents))} / ${per}.`}
      </p>
    </div>
  );
}

// Stripe.js loads only when Stripe takes the payments (docs/decisions/041).
const StripeSubscribeForm = lazy(async () => ({
  default: (await import('../components/stripe-subscribe-form')).StripeSubscribeForm,
}));

/**
 * Checkout for a plan: what it costs and covers, then the sandbox card form with an optional promo code, or
 * Stripe's Payment Element.
 */
export function SubscribePage() {
  const { username = '', planId = '' } = useParams<{ username: string; planId: string }>();
  const id = Number(planId);
  const { data: plans, isPending } = usePlans(username);
  const plan = plans?.find((candidate) => candidate.id === id && candidate.active);
  const subscribe = useSubscribe(id);
  const [, navigate] = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [promo, setPromo] = useState<PromoQuote | null>(null);
  const [promoError, setPromoError] = useState<string | null>(null);
  useDocumentTitle(plan ? `Subscribe to ${plan.name}` : 'Subscribe');

  // What is charged today: nothing with a trial; else the first period, discounted by the code.
  const submitLabel = !plan
    ? 'Subscribe'
    : planTrial(plan)
      ? 'Start free trial'
      : `Pay ${formatDollars(promo?.price ?? centsToDollars(plan.priceCents))}`;

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
            {promo ? (
              <PromoPrice plan={plan} quote={promo} />
            ) : (
              <p className="text-2xl font-bold tabular-nums">{planPrice(plan)}</p>
            )}
            <p className="text-sm text-muted-foreground">
              Every pick in {plan.leagues.join(', ')}, renewing until you cancel.
            </p>
            {planTrial(plan) && (
              <p className="text-sm font-medium text-primary">
                {planTrial(plan)} (your first with this capper): nothing is charged until it ends.
              </p>
            )}
            {/* Stripe Billing does not apply codes yet (decision 037): the field is the sandbox's. */}
            {appConfig.paymentProvider !== 'stripe' && (
              <div className="border-t pt-3">
                <PromoCodeField
                  planId={plan.id}
                  applied={promo?.code ?? null}
                  discount={promo?.discount ?? null}
                  error={promoError}
                  onApply={(_code, quote) => {
                    setPromoError(null);
                    setPromo(quote);
                  }}
                  onRemove={() => {
                    setPromoError(null);
                    setPromo(null);
                  }}
                />
              </div>
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
              submitLabel={submitLabel}
              busy={subscribe.isPending}
              error={error}
              onSubmit={(card) => {
                setError(null);
                subscribe.mutate(
                  { card, ...(promo && { promoCode: promo.code }) },
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
                    onError: (failure) => {
                      const message = errorMessage(failure);
                      // The code went meanwhile (used up, expired, retired): said by the field, back to full price.
                      if (promo && PROMO_REFUSALS.includes(message)) {
                        setPromo(null);
                        setPromoError(message);
                      } else setError(message);
                    },
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
