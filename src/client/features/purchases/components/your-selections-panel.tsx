import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'wouter';
import { Receipt, Trophy } from 'lucide-react';
import type { SealedLeg } from '#common/pick-seal.js';
import type { LegState } from '#common/schemas/pick-views.js';
import type { PurchaseOutcome } from '#common/schemas/purchases.js';
import type { Video } from '#common/schemas/videos.js';
import { Button, buttonClasses } from '#client/components/ui/button.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { cn } from '#client/lib/cn.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import {
  Commitment,
  usePick,
  usePickLegs,
  usePickReveal,
  VerifyButton,
} from '#client/features/picks/index.ts';
import { usePurchases } from '../api/get-purchases';
import { useReceipt } from '../api/get-receipt';
import { OutcomeChip } from './outcome-chip';
import { SelectionLegs } from './selection-legs';

/** Where checkout sends a buyer: the pick's page, at this panel. */
export const SELECTIONS_ANCHOR = 'your-selections';
export const NO_SELECTIONS_TEXT = 'No winning selections were written for this pick.';

interface SelectionsView {
  legs: readonly SealedLeg[];
  states: readonly LegState[];
  commitment: string | null;
  /** The sealed pick with its salt, when this viewer may recompute the commitment now. */
  sealed: unknown;
  outcome: PurchaseOutcome | null;
  selections: string | null;
  receiptId: number | null;
  buyer: boolean;
}

/**
 * The top of a pick's page for its buyer (and its owner): the selections in large type, each leg with its
 * game, start, price and status, the commitment with Verify, and what happens next.
 */
export function YourSelectionsPanel({ video, purchased }: { video: Video; purchased: boolean }) {
  if (video.isOwner) return <OwnerSelections video={video} />;
  if (purchased) return <BuyerSelections video={video} />;
  return null;
}

function BuyerSelections({ video }: { video: Video }) {
  const purchases = usePurchases();
  const purchase = purchases.data?.find((p) => p.videoId === video.id);
  const receipt = useReceipt(purchase?.id ?? null);
  const error = purchases.error ?? receipt.error;
  if (error) {
    return (
      <PanelFrame>
        <div className="grid justify-items-start gap-2">
          <p className="text-sm text-destructive">Could not load your selections: {errorMessage(error)}</p>
          <Button
            variant="outline"
            size="sm"
            onClick={() => void (purchases.isError ? purchases.refetch() : receipt.refetch())}
          >
            Try again
          </Button>
        </div>
      </PanelFrame>
    );
  }
  // The purchase list may not have this purchase yet (just paid): the video's own selections meanwhile.
  if (!purchases.isPending && !purchase) {
    return <SelectionsBody view={fallbackView(video, true)} />;
  }
  if (!receipt.data) return <LoadingPanel />;
  const data = receipt.data;
  return (
    <SelectionsBody
      view={{
        legs: data.pick?.legs ?? [],
        states: data.pick?.states ?? [],
        commitment: data.pick?.commitment ?? null,
        sealed: data.pick?.sealed ?? null,
        outcome: data.outcome,
        selections: data.selections,
        receiptId: data.id,
        buyer: true,
      }}
    />
  );
}

function fallbackView(video: Video, buyer: boolean): SelectionsView {
  return {
    legs: [],
    states: [],
    commitment: video.pick?.commitment ?? null,
    sealed: null,
    outcome: video.pick
      ? { status: video.pick.status, result: video.pick.result, unitsWon: video.pick.unitsWon, removed: null }
      : null,
    selections: video.emailInformation ?? null,
    receiptId: null,
    buyer,
  };
}

/** The capper sees what their buyers see; Verify once the salt is public (graded). */
function OwnerSelections({ video }: { video: Video }) {
  const verified = video.pick !== null;
  const legs = usePickLegs(video.id, { enabled: verified });
  const pick = usePick(video.id, { enabled: verified });
  const graded = pick.data?.status === 'graded' && pick.data.removed !== 'moderation';
  const reveal = usePickReveal(video.id, { enabled: graded });
  if (!verified) return <SelectionsBody view={fallbackView(video, false)} />;
  if (legs.isPending || pick.isPending) return <LoadingPanel />;
  if (legs.isError || pick.isError) {
    return (
      <PanelFrame>
        <p className="text-sm text-destructive">
          Could not load the selections: {errorMessage(legs.error ?? pick.error)}
        </p>
      </PanelFrame>
    );
  }
  return (
    <SelectionsBody
      view={{
        legs: legs.data.legs,
        states: legs.data.states,
        commitment: pick.data.commitment,
        sealed: reveal.data?.sealed ?? null,
        outcome: {
          status: pick.data.status,
          result: pick.data.result ?? null,
          unitsWon: pick.data.unitsWon ?? null,
          removed: pick.data.removed,
        },
        selections: video.emailInformation ?? null,
        receiptId: null,
        buyer: false,
      }}
    />
  );
}

function PanelFrame({ children, focusOnArrival = false }: { children: ReactNode; focusOnArrival?: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const focused = useRef(false);
  useEffect(() => {
    // Arriving from checkout (#your-selections): the buyer's next stop is this heading, read aloud too.
    if (!focusOnArrival || focused.current || window.location.hash !== `#${SELECTIONS_ANCHOR}`) return;
    focused.current = true;
    heading.current?.focus();
    heading.current?.scrollIntoView({ block: 'start' });
  }, [focusOnArrival]);
  return (
    <section
      id={SELECTIONS_ANCHOR}
      aria-labelledby="your-selections-title"
      className="grid min-w-0 gap-5 rounded-card border-2 border-primary/40 bg-primary/5 p-4 sm:p-6"
      data-testid="your-selections"
    >
      <h2
        id="your-selections-title"
        ref={heading}
        tabIndex={-1}
        className="flex scroll-mt-24 items-center gap-2 text-2xl font-bold tracking-tight focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-primary sm:text-3xl"
      >
        <Trophy aria-hidden className="size-6 shrink-0 text-primary" />
        Your selections
      </h2>
      {children}
    </section>
  );
}

function LoadingPanel() {
  return (
    <PanelFrame>
      <div className="grid gap-3" role="status">
        <span className="sr-only">Loading your selections</span>
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-5 w-2/3" />
      </div>
    </PanelFrame>
  );
}

function SelectionsBody({ view }: { view: SelectionsView }) {
  const sealedPick = view.legs.length > 0;
  return (
    <PanelFrame focusOnArrival>
      {view.outcome && (
        <div className="flex flex-wrap items-center gap-3">
          <OutcomeChip outcome={view.outcome} className="text-base" />
        </div>
      )}
      {sealedPick ? <SelectionLegs legs={view.legs} states={view.states} /> : null}
      {(!sealedPick || view.selections?.trim()) && (
        <div className="grid gap-1">
          <h3 className="text-sm font-semibold tracking-wide text-muted-foreground uppercase">
            {sealedPick ? "The capper's notes" : 'Winning selections'}
          </h3>
          <p
            className="text-lg leading-relaxed font-medium whitespace-pre-wrap break-words sm:text-xl"
            data-testid="your-selections-text"
          >
            {view.selections?.trim() || NO_SELECTIONS_TEXT}
          </p>
        </div>
      )}
      <WhatHappensNext view={view} />
      {view.commitment && sealedPick && (
        <div className="grid gap-2">
          <h3 className="text-sm font-semibold">Commitment</h3>
          <Commitment value={view.commitment} label="the commitment of your pick" />
          {view.sealed ? (
            <VerifyButton sealed={view.sealed} expected={view.commitment} />
          ) : (
            <p className="text-xs text-muted-foreground">
              Verify becomes available once every leg is graded, when the pick&apos;s salt is published.
            </p>
          )}
        </div>
      )}
      {view.receiptId !== null && (
        <Link href={`/purchases/${view.receiptId}`} className={cn(buttonClasses('outline', 'md'), 'w-fit')}>
          <Receipt aria-hidden />
          View your receipt
        </Link>
      )}
    </PanelFrame>
  );
}

function WhatHappensNext({ view }: { view: SelectionsView }) {
  const where = view.buyer ? 'here and on your receipt' : 'here';
  const text = !view.outcome
    ? 'This pick is unverified: it was not sealed, so it is not graded automatically or counted in any record.'
    : view.outcome.status === 'graded'
      ? `Graded automatically from the final scores: each leg's result is shown ${where}.`
      : `What happens next: each leg is graded automatically from its game's final score. You will see the result ${where}.`;
  return (
    <p className="text-base text-foreground/90" data-testid="what-happens-next">
      {text}
    </p>
  );
}
