import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { Lock, ShoppingCart } from 'lucide-react';
import { formatPrice } from '#common/money.js';
import type { GradedPick, OpenPick } from '#common/schemas/cappers.js';
import { Button, buttonClasses } from '#client/components/ui/button.tsx';
import { Card } from '#client/components/ui/card.tsx';
import { authPath } from '#client/lib/auth-redirect.ts';
import { cn } from '#client/lib/cn.ts';
import { useUser } from '#client/features/auth/index.ts';
import { LegBindingTag, PickLegsList } from '#client/features/picks/index.ts';
import { betsCount, formatClv, formatUnits, trendClass } from './record-figures';

type Leg = GradedPick['legs'][number];

const TIME = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});
export const formatTime = (iso: string) => TIME.format(new Date(iso));

const signed = (value: number) => (value > 0 ? `+${value}` : String(value));

/** 'Lakers -3.5', 'Over 220.5', 'Celtics ML', or a prop's own words. */
export function legBet(leg: Leg): string {
  if (leg.market === 'moneyline') return `${leg.side} ML`;
  if (leg.market === 'spread') return `${leg.side} ${leg.line === null ? '' : signed(leg.line)}`.trim();
  if (leg.market === 'total') {
    const side = leg.side.charAt(0).toUpperCase() + leg.side.slice(1).toLowerCase();
    return `${side} ${leg.line ?? ''}`.trim();
  }
  return leg.side;
}

const RESULT_STYLE: Record<GradedPick['result'], string> = {
  win: 'bg-emerald-100 text-emerald-800',
  loss: 'bg-red-100 text-red-800',
  push: 'bg-muted text-foreground',
  void: 'bg-muted text-muted-foreground',
};

function ResultBadge({ result }: { result: GradedPick['result'] }) {
  return (
    <span className={cn('rounded-full px-2.5 py-0.5 text-xs font-bold uppercase', RESULT_STYLE[result])}>
      {result}
    </span>
  );
}

function Commitment({ value }: { value: string }) {
  return (
    <p className="grid gap-0.5 text-xs text-muted-foreground">
      <span>Commitment (SHA-256 of the sealed pick)</span>
      <code className="font-mono break-all text-foreground">{value}</code>
    </p>
  );
}

/**
 * A graded pick: its result, units and closing line value, the revealed legs with each one's price
 * evidence, grade, score and close, and the commitment they were sealed under.
 */
export function GradedPickItem({ pick }: { pick: GradedPick }) {
  return (
    <li>
      <Card className="grid gap-3 p-4">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="grid gap-0.5">
            <Link href={`/video/${pick.videoId}`} className="font-semibold hover:underline">
              {pick.title}
            </Link>
            <span className="text-xs text-muted-foreground">
              Posted {formatTime(pick.postedAt)} · graded {formatTime(pick.gradedAt)} ·{' '}
              {pick.parlay ? 'parlay, one bet' : betsCount(pick.bets)}
            </span>
          </div>
          <div className="flex flex-wrap items-center justify-end gap-x-3 gap-y-1">
            <ResultBadge result={pick.result} />
            <span className={cn('font-semibold tabular-nums', trendClass(pick.unitsWon))}>
              {formatUnits(pick.unitsWon)}
            </span>
            {pick.clv !== null && (
              <span className="text-xs text-muted-foreground">
                CLV{' '}
                <span
                  className={cn(
                    'text-sm font-semibold tabular-nums',
                    trendClass(Math.round(pick.clv * 100) / 100),
                  )}
                >
                  {formatClv(pick.clv)}
                </span>
              </span>
            )}
          </div>
        </div>
        <PickLegsList
          legs={pick.legs}
          states={pick.states.length === pick.legs.length ? pick.states : undefined}
          label="Legs"
        />
        <Commitment value={pick.commitment} />
      </Card>
    </li>
  );
}

/** A started pick's place of the Buy link: said, not offered (sales close at the first leg's start). */
function SalesClosed() {
  return (
    <p
      className="inline-flex w-fit items-center gap-1.5 rounded-md bg-muted px-3 py-1.5 text-sm font-semibold text-muted-foreground"
      data-testid="sales-closed"
    >
      <Lock aria-hidden className="size-4" />
      Sales closed
    </p>
  );
}

/** Buy for a pick still on sale; a visitor signs in first and comes back to the checkout, as on cards. */
function OpenPickAction({ pick, titleId, own }: { pick: OpenPick; titleId: string; own: boolean }) {
  const { data: user } = useUser();
  if (pick.status === 'started') return <SalesClosed />;
  if (own) return <p className="text-sm text-muted-foreground">Your pick: on sale to everyone else.</p>;
  if (!pick.onSale)
    return <p className="text-sm text-muted-foreground">On sale once its video is processed.</p>;
  const checkout = `/checkout/${pick.videoId}`;
  return (
    <Link
      href={user ? checkout : authPath({ next: checkout })}
      className={buttonClasses('primary', 'sm')}
      aria-describedby={titleId}
    >
      <ShoppingCart aria-hidden />
      Buy for {formatPrice(pick.price)}
    </Link>
  );
}

/**
 * An open pick for sale: its price as charged, league and first game's start, Buy (or Sales closed once
 * under way). It stays sealed: only its commitment, post time and number of legs are public.
 */
export function OpenPickItem({ pick, capperUsername }: { pick: OpenPick; capperUsername: string }) {
  const titleId = useId();
  const { data: user } = useUser();
  const own = user?.username.toLowerCase() === capperUsername.toLowerCase();
  return (
    <li>
      <Card className="grid gap-3 p-4" data-testid="open-pick">
        <div className="flex items-start justify-between gap-3">
          <div className="grid min-w-0 gap-1">
            <Link
              id={titleId}
              href={`/video/${pick.videoId}`}
              className="font-semibold [overflow-wrap:anywhere] hover:underline"
            >
              {pick.title}
            </Link>
            <span className="text-sm text-muted-foreground">
              <span className="font-medium text-foreground">{pick.league}</span> ·{' '}
              {pick.status === 'started' ? 'Started' : 'Starts'}{' '}
              <time dateTime={pick.startsAt} data-testid="open-pick-start">
                {formatTime(pick.startsAt)}
              </time>
            </span>
          </div>
          <span
            className="shrink-0 rounded-lg bg-primary/10 px-2 py-0.5 text-base font-bold text-primary tabular-nums"
            data-testid="open-pick-price"
          >
            <span className="sr-only">Price </span>
            {formatPrice(pick.price)}
          </span>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <span className="flex flex-wrap items-center gap-2">
            {pick.selfReported && <LegBindingTag market={false} detail="will not count" />}
            <span className="rounded-full bg-muted px-2.5 py-0.5 text-xs font-semibold">
              {pick.status === 'started' ? 'Under way' : 'Open'} · {pick.legCount}{' '}
              {pick.legCount === 1 ? 'leg' : 'legs'}, sealed
            </span>
          </span>
          <OpenPickAction pick={pick} titleId={titleId} own={own} />
        </div>
        <span className="text-xs text-muted-foreground">Posted {formatTime(pick.postedAt)}</span>
        <Commitment value={pick.commitment} />
      </Card>
    </li>
  );
}

const SELF_REPORTED_SHOWN = 10;

/**
 * Self-reported graded picks (docs/decisions/025), never counted: one row each, the legs in a line. A
 * table scrolls sideways on a phone rather than squeezing its columns.
 */
export function SelfReportedTable({ picks }: { picks: readonly GradedPick[] }) {
  const [all, setAll] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const shown = all ? picks : picks.slice(0, SELF_REPORTED_SHOWN);
  // The button goes once pressed: the focus moves to the first row it brought, not to the page's top.
  useEffect(() => {
    if (!all) return;
    // The list or the table, whichever is displayed.
    const links = [...(root.current?.querySelectorAll<HTMLElement>('li > div > a, tbody a') ?? [])].filter(
      (link) => link.offsetParent !== null,
    );
    links[SELF_REPORTED_SHOWN]?.focus();
  }, [all]);
  return (
    <div ref={root} className="grid justify-items-stretch gap-3">
      {/* Phones: a card per pick; from `sm` up, the table. Only one of the two is displayed at a time. */}
      <ol aria-label="Self-reported picks, newest first" className="grid gap-2 sm:hidden">
        {shown.map((pick) => (
          <li key={pick.videoId} className="grid gap-1.5 rounded-card border bg-card p-3 text-sm shadow-xs">
            <div className="flex items-start justify-between gap-3">
              <Link
                href={`/video/${pick.videoId}`}
                className="min-w-0 font-medium break-words hover:underline"
              >
                {pick.title}
              </Link>
              <span className="flex shrink-0 items-center gap-2">
                <ResultBadge result={pick.result} />
                <span className={cn('font-semibold tabular-nums', trendClass(pick.unitsWon))}>
                  {formatUnits(pick.unitsWon)}
                </span>
              </span>
            </div>
            <p className="grid gap-0.5 text-xs text-muted-foreground">
              {pick.legs.map((leg, index) => (
                <span key={index}>
                  {legBet(leg)} ({signed(leg.odds)}) · {leg.away} @ {leg.home}
                </span>
              ))}
              <span>
                {pick.parlay && 'Parlay · '}graded{' '}
                <time dateTime={pick.gradedAt}>{formatTime(pick.gradedAt)}</time>
              </span>
            </p>
          </li>
        ))}
      </ol>
      <Card className="hidden w-full overflow-x-auto sm:block">
        <table className="w-full min-w-[36rem] text-sm">
          <caption className="sr-only">
            Self-reported picks, newest first: never counted in the record
          </caption>
          <thead className="border-b bg-muted/60 text-left text-xs tracking-wide text-muted-foreground uppercase">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Pick
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Legs
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Result
              </th>
              <th scope="col" className="px-4 py-3 text-right font-semibold">
                Units
              </th>
              <th scope="col" className="px-4 py-3 text-right font-semibold">
                Graded
              </th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {shown.map((pick) => (
              <tr key={pick.videoId}>
                <th scope="row" className="max-w-[14rem] px-4 py-3 text-left font-medium">
                  <Link href={`/video/${pick.videoId}`} className="break-words hover:underline">
                    {pick.title}
                  </Link>
                </th>
                <td className="px-4 py-3 text-muted-foreground">
                  {pick.legs.map((leg, index) => (
                    <span key={index} className="block">
                      {legBet(leg)} ({signed(leg.odds)}) · {leg.away} @ {leg.home}
                    </span>
                  ))}
                  {pick.parlay && <span className="block text-xs">Parlay</span>}
                </td>
                <td className="px-4 py-3">
                  <ResultBadge result={pick.result} />
                </td>
                <td className={cn('px-4 py-3 text-right tabular-nums', trendClass(pick.unitsWon))}>
                  {formatUnits(pick.unitsWon)}
                </td>
                <td className="px-4 py-3 text-right text-xs whitespace-nowrap text-muted-foreground">
                  <time dateTime={pick.gradedAt}>{formatTime(pick.gradedAt)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      {picks.length > shown.length && (
        <Button variant="outline" className="justify-self-start" onClick={() => setAll(true)}>
          Show all {picks.length}
        </Button>
      )}
    </div>
  );
}
