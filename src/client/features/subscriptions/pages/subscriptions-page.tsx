import { useState } from 'react';
import { Link } from 'wouter';
import { AlertTriangle } from 'lucide-react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogConfirm,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '#client/components/ui/alert-dialog.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Card } from '#client/components/ui/card.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { toast } from '#client/components/ui/use-toast.ts';
import { centsToDollars, formatDollars } from '#common/money.js';
import { appConfig } from '#client/lib/app-config.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import {
  useCancelSubscription,
  useChangeCard,
  useSubscriptions,
  type Subscription,
} from '../api/subscriptions';
import { useBillingPortal } from '../api/billing';
import { formatDay, perPeriod, planPrice } from '../components/plan-format';
import { SubscriptionCardForm } from '../components/subscription-card-form';

/** "Code SAVE20: 20% off every month", or what a `once` code did; the stored terms (decision 039). */
function promoLine(subscription: Subscription): string | null {
  const promo = subscription.promo;
  if (!promo) return null;
  const off =
    promo.kind === 'percent'
      ? `${promo.percentOff}% off`
      : `${formatDollars(centsToDollars(promo.amountOffCents ?? 0))} off`;
  const per = perPeriod(subscription.plan);
  if (promo.duration === 'forever') return `Code ${promo.code}: ${off} every ${per}`;
  return promo.active
    ? `Code ${promo.code}: ${off} your first paid ${per}`
    : `Code ${promo.code}: ${off} your first paid ${per} (used)`;
}

const STATUS_LABEL: Record<Subscription['status'], string> = {
  trialing: 'Free trial',
  active: 'Active',
  past_due: 'Payment failed — retrying',
  canceled: 'Cancelled',
  ended: 'Ended',
};

/** The bettor's subscriptions: status, next renewal or end of access, and Cancel (confirmed). */
export function SubscriptionsPage() {
  useDocumentTitle('Subscriptions');
  const { data, isPending, isError, error } = useSubscriptions();
  const cancel = useCancelSubscription();
  const [confirming, setConfirming] = useState<Subscription | null>(null);

  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Subscriptions</h1>
      {appConfig.paymentProvider === 'stripe' && <ManageBilling />}
      {isPending ? (
        <Skeleton className="h-32 rounded-card" />
      ) : isError ? (
        <p role="alert" className="flex items-center gap-2 text-destructive">
          <AlertTriangle aria-hidden className="size-5" /> Could not load your subscriptions:{' '}
          {errorMessage(error)}
        </p>
      ) : data.length === 0 ? (
        <p className="text-muted-foreground">
          No subscriptions yet. A capper&apos;s plans are on their page;{' '}
          <Link href="/leaderboard" className="font-medium text-primary underline">
            find one on the leaderboard
          </Link>
          .
        </p>
      ) : (
        <ul className="grid gap-4" aria-label="Your subscriptions">
          {data.map((subscription) => (
            <li key={subscription.id}>
              <Card className="grid gap-2 p-5" data-testid="subscription">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <h2 className="font-semibold [overflow-wrap:anywhere]">
                    {subscription.plan.name}{' '}
                    <Link
                      href={`/cappers/${encodeURIComponent(subscription.plan.capperUsername)}`}
                      className="font-normal text-primary underline-offset-4 hover:underline"
                    >
                      @{subscription.plan.capperUsername}
                    </Link>
                  </h2>
                  <p className="text-sm font-medium" data-testid="subscription-status">
                    {STATUS_LABEL[subscription.status]}
                  </p>
                </div>
                <p className="text-sm text-muted-foreground">
                  {planPrice(subscription.plan)} · {subscription.plan.leagues.join(', ')} · card ending{' '}
                  {subscription.cardLast4}
                </p>
                {promoLine(subscription) && (
                  <p className="text-sm text-emerald-700" data-testid="subscription-promo">
                    {promoLine(subscription)}
                  </p>
                )}
                <p className="text-sm">
                  {subscription.nextRenewal
                    ? `Next renewal: ${formatDay(subscription.nextRenewal)}${
                        subscription.nextChargeCents !== null
                          ? `, ${formatDollars(centsToDollars(subscription.nextChargeCents))}`
                          : ''
                      }`
                    : subscription.accessUntil
                      ? `Access until ${formatDay(subscription.accessUntil)}; no renewal`
                      : 'Ended'}
                </p>
                {subscription.status === 'past_due' && appConfig.paymentProvider !== 'stripe' && (
                  <ChangeCard subscription={subscription} />
                )}
                {(subscription.status === 'trialing' ||
                  subscription.status === 'active' ||
                  subscription.status === 'past_due') && (
                  <Button
                    variant="outline"
                    size="sm"
                    className="w-fit"
                    aria-label={`Cancel ${subscription.plan.name}`}
                    onClick={() => setConfirming(subscription)}
                  >
                    Cancel
                  </Button>
                )}
              </Card>
            </li>
          ))}
        </ul>
      )}
      <AlertDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open && !cancel.isPending) setConfirming(null);
        }}
      >
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Cancel {confirming?.plan.name}?</AlertDialogTitle>
            <AlertDialogDescription>
              {confirming?.status === 'past_due'
                ? 'Its payment failed, so access ends now.'
                : `No renewal. You keep access until ${formatDay(confirming?.currentPeriodEnd ?? null)}.`}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={cancel.isPending}>Keep it</AlertDialogCancel>
            <AlertDialogConfirm
              disabled={cancel.isPending}
              aria-busy={cancel.isPending}
              onClick={() => {
                if (!confirming) return;
                cancel.mutate(confirming.id, {
                  onSuccess: () => {
                    toast({ title: 'Subscription cancelled', variant: 'success' });
                    setConfirming(null);
                  },
                  onError: (failure) => {
                    toast({
                      title: 'Could not cancel',
                      description: errorMessage(failure),
                      variant: 'destructive',
                    });
                    setConfirming(null);
                  },
                });
              }}
            >
              Cancel subscription
            </AlertDialogConfirm>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

/** A past-due subscription's card: replaced and charged at once, or the card's problem shown. */
function ChangeCard({ subscription }: { subscription: Subscription }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const change = useChangeCard(subscription.id);
  if (!open)
    return (
      <Button size="sm" className="w-fit" onClick={() => setOpen(true)}>
        Update card
      </Button>
    );
  return (
    <SubscriptionCardForm
      submitLabel="Save card and pay"
      busyLabel="Saving…"
      busy={change.isPending}
      error={error}
      onSubmit={(card) => {
        setError(null);
        change.mutate(
          { card },
          {
            onSuccess: (updated) => {
              if (updated.status === 'past_due') setError('The new card was declined too.');
              else
                toast({
                  title: 'Card updated',
                  description: 'Your subscription is active again.',
                  variant: 'success',
                });
            },
            onError: (failure) => setError(errorMessage(failure)),
          },
        );
      }}
    />
  );
}

/** Stripe's Customer Portal: cards, invoices and cancelling, coming back here (docs/decisions/041). */
function ManageBilling() {
  const portal = useBillingPortal();
  return (
    <div className="grid gap-2">
      <Button variant="outline" className="w-fit" disabled={portal.isPending} onClick={() => portal.mutate()}>
        Manage cards and billing
      </Button>
      {portal.isError && (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(portal.error)}
        </p>
      )}
    </div>
  );
}
