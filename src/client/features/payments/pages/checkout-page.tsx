import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import {
  AlertTriangle,
  ArrowLeft,
  BookOpen,
  CreditCard,
  Lock,
  RefreshCw,
  SearchX,
  Undo2,
} from 'lucide-react';
import { Button, buttonClasses } from '#client/components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '#client/components/ui/card.tsx';
import { PageSpinner, Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/use-toast.ts';
import { appConfig } from '#client/lib/app-config.ts';
import { errorMessage, errorStatus } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { parseVideoId, useVideo, videoQueryKey } from '#client/features/videos/index.ts';
import { useCompletePayment } from '../api/complete-payment';
import { paymentIntentQueryKey, usePaymentIntent } from '../api/create-payment-intent';
import { formatUnits } from '#common/pick-grading.js';
import type { Video } from '#common/schemas/videos.js';
import { OrderSummary, WhatYouGet } from '../components/order-summary';
import { PAYMENT_ERROR_FALLBACK, type PaymentFormProps } from '../components/payment-form-props';
import { PromoCodeField } from '../components/promo-code-field';
import { SandboxCardForm } from '../components/sandbox-card-form';

// Stripe.js and its React bindings load only here, and only when Stripe is the provider.
const StripeCardForm = lazy(async () => ({
  default: (await import('../components/stripe-card-form')).StripeCardForm,
}));

const INTENT_ERROR_FALLBACK = 'Failed to initialize payment';
/** spec 8: the server's own sentence (own video, already bought, not found), else 'Failed to initialize payment'. */
function intentErrorMessage(error: unknown): string {
  const status = errorStatus(error);
  // A 5xx body is a proxy's page or "Internal Server Error": not a sentence for a buyer.
  if (status === null || status >= 500) return INTENT_ERROR_FALLBACK;
  return errorMessage(error, INTENT_ERROR_FALLBACK);
}

const RECORDING_ERROR = 'Payment processed but there was an error recording your purchase';
/** The server's 409 (and its sandbox's canceled intent) when the pick's first game has started. */
const SALES_CLOSED = /^Sales for this pick closed/;
/** The server's 409 (and its sandbox's canceled intent) once the pick is graded: free to read, never sold. */
const GRADED = /^This pick has been graded/;

export function CheckoutPage() {
  useDocumentTitle('Checkout');
  const params = useParams<{ id: string }>();
  const videoId = parseVideoId(params.id);
  if (videoId === null) return <VideoNotFound />;
  return <Checkout videoId={videoId} />;
}

/** After a redirect-based Stripe method, Stripe sends the buyer back here with the intent in the query. */
function useStripeReturn(): { paymentIntentId: string; succeeded: boolean } | null {
  const search = useSearch();
  const query = new URLSearchParams(search);
  const paymentIntentId = query.get('payment_intent');
  if (appConfig.paymentProvider !== 'stripe' || !paymentIntentId) return null;
  return { paymentIntentId, succeeded: query.get('redirect_status') === 'succeeded' };
}

function Checkout({ videoId }: { videoId: number }) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const video = useVideo(videoId);
  const complete = useCompletePayment();
  const [paidIntentId, setPaidIntentId] = useState<string | null>(null);
  // The capper changed the price after this page showed it; the old intent was canceled.
  const [priceChanged, setPriceChanged] = useState<string | null>(null);
  const stripeReturn = useStripeReturn();
  // The promo code the payment is prepared with; its refusal (a 4xx from preparing it) shows by the field.
  const [promoCode, setPromoCode] = useState<string | null>(null);
  const [promoError, setPromoError] = useState<string | null>(null);

  // A pick is on sale until its first leg starts (decisions 'Selling only what is still secret and undecided').
  const salesClosed = Boolean(video.data?.pick && video.data.pick.status !== 'open');
  const blocked = video.data ? video.data.isOwner || video.data.isPurchased || salesClosed : false;
  const intent = usePaymentIntent(videoId, {
    enabled: video.isSuccess && !blocked && paidIntentId === null && stripeReturn === null,
    promoCode,
  });
  // A code refused while preparing the payment (its last use just taken, expired meanwhile): back to the
  // full price, with the reason beside the field.
  const promoRefused = promoCode !== null && intent.isError && (errorStatus(intent.error) ?? 500) < 500;
  // (Set while rendering, React's pattern for state derived from a change: no effect's extra pass.)
  if (promoRefused) {
    setPromoError(errorMessage(intent.error, 'This code cannot be used'));
    setPromoCode(null);
  }

  // A redirect-based Stripe method came back paid: that intent is the one to record.
  const returnedIntentId = stripeReturn?.succeeded ? stripeReturn.paymentIntentId : null;
  const paidId = paidIntentId ?? returnedIntentId;

  const recordPurchase = (paymentIntentId: string) =>
    complete.mutate(
      { paymentIntentId, videoId },
      {
        onSuccess: () => {
          toast({
            title: 'Payment successful!',
            description: 'Thank you for purchasing this product.',
            variant: 'success',
          });
          navigate(`/video/${videoId}#your-selections`);
        },
        onError: (error) => {
          // A 409 is a refund, explained in place (PaymentRefunded); anything else may be tried again.
          if (errorStatus(error) !== 409)
            toast({ title: 'Error', description: RECORDING_ERROR, variant: 'destructive' });
        },
      },
    );

  const onPaid = (paymentIntentId: string) => {
    setPaidIntentId(paymentIntentId);
    recordPurchase(paymentIntentId);
  };

  // Back from Stripe's redirect: record the purchase once (StrictMode runs effects twice).
  const handledReturn = useRef(false);
  useEffect(() => {
    if (!stripeReturn || handledReturn.current) return;
    handledReturn.current = true;
    if (stripeReturn.succeeded) {
      recordPurchase(stripeReturn.paymentIntentId);
    } else {
      toast({ title: 'Payment failed', description: PAYMENT_ERROR_FALLBACK, variant: 'destructive' });
      navigate(`/checkout/${videoId}`, { replace: true });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival
  }, []);

  // A refused or cancelled payment may mean the pick started or was graded since the video was read (with
  // Stripe a cancelled intent looks like a price change): read it again, so the page shows the pick as it
  // is now, a graded one with its result.
  const intentRefusal = intent.isError ? errorMessage(intent.error, '') : '';
  const recheck = priceChanged !== null || GRADED.test(intentRefusal) || SALES_CLOSED.test(intentRefusal);
  useEffect(() => {
    if (recheck) void queryClient.invalidateQueries({ queryKey: videoQueryKey(videoId) });
  }, [recheck, queryClient, videoId]);

  const onPaymentError = (message: string) =>
    toast({ title: 'Payment failed', description: message, variant: 'destructive' });

  // A fresh intent at the current price, and the video as it is now (its price, or 'Purchased'): the buyer
  // sees the amount before paying again.
  const reviewCurrentPrice = () => {
    setPriceChanged(null);
    setPaidIntentId(null);
    complete.reset();
    void queryClient.resetQueries({ queryKey: paymentIntentQueryKey(videoId) });
    void queryClient.invalidateQueries({ queryKey: videoQueryKey(videoId) });
    if (stripeReturn) navigate(`/checkout/${videoId}`, { replace: true });
  };

  // Recorded: the dashboard is on its way; the refetched video (now "purchased") must not flash a refusal.
  if (complete.isSuccess) return <PageSpinner label="Opening your purchases" />;
  if (video.isPending) return <PageSpinner label="Loading checkout" />;
  if (video.isError) {
    if (errorStatus(video.error) === 404) return <VideoNotFound />;
    return <CheckoutError message={errorMessage(video.error, 'Failed to load this video')} />;
  }

  let payment: ReactNode;
  if (paidId !== null && complete.isError && errorStatus(complete.error) === 409) {
    payment = (
      <PaymentRefunded
        message={errorMessage(complete.error, RECORDING_ERROR)}
        onReview={reviewCurrentPrice}
      />
    );
  } else if (paidId !== null && complete.isError) {
    payment = <RecordingFailed onRetry={() => recordPurchase(paidId)} />;
  } else if (paidId !== null && !intent.data) {
    payment = <PaymentSpinner label="Recording your purchase" />;
  } else if (video.data.isOwner) {
    return <CheckoutError message="You cannot buy your own video." />;
  } else if (video.data.isPurchased) {
    return <CheckoutError message="You have already purchased this video." purchased />;
  } else if (salesClosed) {
    // The catalog's row may still say 'started' when the server has already refused a graded pick.
    const graded = video.data.pick?.status === 'graded' || GRADED.test(priceChanged ?? intentRefusal);
    return <SalesClosedMessage video={video.data} graded={graded} />;
  } else if (priceChanged !== null && GRADED.test(priceChanged)) {
    return <SalesClosedMessage video={video.data} graded message={priceChanged} />;
  } else if (priceChanged !== null && SALES_CLOSED.test(priceChanged)) {
    return <SalesClosedMessage video={video.data} graded={false} message={priceChanged} />;
  } else if (priceChanged !== null) {
    payment = <PriceChanged message={priceChanged} onReview={reviewCurrentPrice} />;
  } else if (intent.isPending) {
    payment = <PaymentSpinner label="Preparing your payment" />;
  } else if (intent.isError) {
    // 409: the first game started (or the pick was graded) since the video was fetched; the server says which.
    const refusal = errorMessage(intent.error, '');
    if (errorStatus(intent.error) === 409 && GRADED.test(refusal))
      return <SalesClosedMessage video={video.data} graded message={refusal} />;
    if (errorStatus(intent.error) === 409 && SALES_CLOSED.test(refusal))
      return <SalesClosedMessage video={video.data} graded={false} message={refusal} />;
    return (
      <CheckoutError
        message={intentErrorMessage(intent.error)}
        purchased={/already purchased/i.test(errorMessage(intent.error, ''))}
      />
    );
  } else {
    const formProps: PaymentFormProps = {
      videoId,
      clientSecret: intent.data.clientSecret,
      amount: intent.data.amount,
      onPaid,
      onPaymentError,
      onPriceChanged: setPriceChanged,
      recording: complete.isPending,
    };
    // Keyed by the intent: a code applied or removed is a new intent, and Stripe's Elements cannot change
    // their client secret in place.
    payment =
      intent.data.provider === 'stripe' ? (
        <Suspense fallback={<PaymentSpinner label="Loading the payment form" />}>
          <StripeCardForm key={intent.data.clientSecret} {...formProps} />
        </Suspense>
      ) : (
        <SandboxCardForm key={intent.data.clientSecret} {...formProps} />
      );
  }

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-8 sm:px-6 lg:px-8 lg:py-12">
      <div className="grid gap-2">
        <Link
          href={`/video/${videoId}`}
          className="inline-flex w-fit items-center gap-1.5 text-sm font-medium text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft aria-hidden className="size-4" />
          Back to the video
        </Link>
        <h1 className="text-3xl font-bold tracking-tight">Checkout</h1>
      </div>
      {/* On a phone the summary comes first: what is bought and what it costs, then the card. From lg up
          it is the right-hand column. */}
      <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
        <div className="grid content-start gap-6 lg:col-start-2 lg:row-start-1">
          {/* The amount the intent will charge, to the cent (docs/product-decisions.md 'Money');
              none while there is none. */}
          <OrderSummary video={video.data} amount={intent.data?.amount ?? null} promo={intent.data?.promo}>
            {intent.data && paidId === null && (
              <PromoCodeField
                videoId={videoId}
                applied={intent.data.promo?.code ?? null}
                discount={intent.data.promo?.discount ?? null}
                error={promoError}
                onApply={(code) => {
                  setPromoError(null);
                  setPromoCode(code);
                }}
                onRemove={() => {
                  setPromoError(null);
                  setPromoCode(null);
                }}
              />
            )}
          </OrderSummary>
          <WhatYouGet video={video.data} />
        </div>
        <Card className="lg:col-start-1 lg:row-start-1">
          <CardHeader>
            <h2 className="flex items-center gap-2 text-lg leading-tight font-semibold tracking-tight">
              <CreditCard aria-hidden className="size-5 text-primary" />
              Payment Details
            </h2>
          </CardHeader>
          <CardContent>{payment}</CardContent>
        </Card>
      </div>
    </div>
  );
}

function PaymentSpinner({ label }: { label: string }) {
  return (
    <div className="flex min-h-48 flex-col items-center justify-center gap-3 text-sm text-muted-foreground">
      <Spinner className="size-8" label={label} />
      <span aria-hidden>{label}…</span>
    </div>
  );
}

function RecordingFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="grid gap-4 rounded-xl border border-destructive/30 bg-destructive/5 p-5 text-sm"
    >
      <p className="font-medium text-destructive">{RECORDING_ERROR}.</p>
      <p className="text-muted-foreground">
        Your payment went through. Try recording it again; you will not be charged twice.
      </p>
      <Button onClick={onRetry} className="w-fit">
        Try again
      </Button>
    </div>
  );
}

/** The intent was canceled before any charge: say so, and show the new price before another try. */
function PriceChanged({ message, onReview }: { message: string; onReview: () => void }) {
  return (
    <div
      role="alert"
      data-testid="price-changed"
      className="grid gap-4 rounded-xl border border-amber-500/40 bg-amber-50 p-5 text-sm text-amber-950"
    >
      <p className="font-medium">{message}</p>
      <Button onClick={onReview} className="w-fit">
        <RefreshCw aria-hidden />
        Review the new price
      </Button>
    </div>
  );
}

/** The payment went through but unlocked nothing, so it was refunded: the server's sentence. */
function PaymentRefunded({ message, onReview }: { message: string; onReview: () => void }) {
  return (
    <div
      role="alert"
      data-testid="payment-refunded"
      className="grid gap-4 rounded-xl border border-amber-500/40 bg-amber-50 p-5 text-sm text-amber-950"
    >
      <p className="flex items-start gap-2 font-medium">
        <Undo2 aria-hidden className="mt-0.5 size-4 shrink-0" />
        {message}
      </p>
      <div className="flex flex-wrap gap-3">
        <Button onClick={onReview} className="w-fit">
          <RefreshCw aria-hidden />
          Review the current price
        </Button>
        <Link href="/dashboard?tab=purchased" className={buttonClasses('outline', 'md')}>
          View your purchases
        </Link>
      </div>
    </div>
  );
}

function CenteredMessage({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="mx-auto flex min-h-[60vh] w-full max-w-lg items-center px-4 py-10">
      <Card className="w-full">
        <CardContent className="grid justify-items-center gap-4 p-8 text-center">
          {icon}
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          {children}
        </CardContent>
      </Card>
    </div>
  );
}

function VideoNotFound() {
  return (
    <CenteredMessage
      title="Video Not Found"
      icon={
        <span className="inline-flex size-14 items-center justify-center rounded-2xl bg-muted text-muted-foreground">
          <SearchX aria-hidden className="size-7" />
        </span>
      }
    >
      <p className="text-muted-foreground">The video you are trying to buy does not exist or was removed.</p>
      <Link href="/" className={buttonClasses('primary', 'md')}>
        Go Back Home
      </Link>
    </CenteredMessage>
  );
}

const RESULT_LABEL = { win: 'Won', loss: 'Lost', push: 'Push', void: 'Void' } as const;

/** 'Won +0.9u', 'Lost -1.0u', 'Push', 'Void': a graded pick's result as the buyer reads it. */
function resultText(pick: Video['pick']): string | null {
  if (!pick?.result) return null;
  const label = RESULT_LABEL[pick.result];
  return pick.unitsWon !== null && (pick.result === 'win' || pick.result === 'loss')
    ? `${label} ${formatUnits(pick.unitsWon)}`
    : label;
}

/**
 * A started pick is not sold ("Sales closed"); a graded one is never sold either, and is free to read: its
 * result and the way to read it, instead of a card form.
 */
function SalesClosedMessage({ video, graded, message }: { video: Video; graded: boolean; message?: string }) {
  const text =
    message ??
    (graded
      ? 'This pick has been graded: the whole pick and its selections are revealed on its page, free to read.'
      : 'Sales for this pick closed when its first game started.');
  const result = graded ? resultText(video.pick) : null;
  return (
    <CenteredMessage
      title={graded ? 'Free to read' : 'Sales closed'}
      icon={
        <span className="inline-flex size-14 items-center justify-center rounded-2xl bg-muted text-muted-foreground">
          {graded ? <BookOpen aria-hidden className="size-7" /> : <Lock aria-hidden className="size-7" />}
        </span>
      }
    >
      {result && (
        <p className="text-xl font-bold" data-testid="checkout-result">
          Graded: {result}
        </p>
      )}
      <p role="alert" className="text-muted-foreground" data-testid="checkout-sales-closed">
        {/[.!?]$/.test(text) ? text : `${text}.`}
        {!/not been charged/.test(text) && ' You have not been charged.'}
      </p>
      <Link href={`/video/${video.id}`} className={buttonClasses('primary', 'md')}>
        {graded ? 'Read it free' : 'Back to the pick'}
      </Link>
    </CenteredMessage>
  );
}

/** spec 2: a payment that cannot be set up shows an 'Error' box with 'Return to Home'. */
function CheckoutError({ message, purchased = false }: { message: string; purchased?: boolean }) {
  return (
    <CenteredMessage
      title="Error"
      icon={
        <span className="inline-flex size-14 items-center justify-center rounded-2xl bg-destructive/10 text-destructive">
          <AlertTriangle aria-hidden className="size-7" />
        </span>
      }
    >
      <p role="alert" className="text-muted-foreground">
        {message}
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <Link href="/" className={buttonClasses('primary', 'md')}>
          Return to Home
        </Link>
        {purchased && (
          <Link href="/dashboard?tab=purchased" className={buttonClasses('outline', 'md')}>
            View your purchases
          </Link>
        )}
      </div>
    </CenteredMessage>
  );
}
