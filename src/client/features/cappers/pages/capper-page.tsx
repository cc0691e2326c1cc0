import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { AlertTriangle, ShieldAlert } from 'lucide-react';
import { PRODUCT_NAME } from '#common/constants.js';
import type { CapperProfile } from '#common/schemas/cappers.js';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { Button, buttonClasses } from '#client/components/ui/button.tsx';
import { Card } from '#client/components/ui/card.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#client/components/ui/tabs.tsx';
import { cn } from '#client/lib/cn.ts';
import { errorMessage, errorStatus } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { FollowButton } from '#client/features/follows/index.ts';
import { PlansSection } from '#client/features/subscriptions/index.ts';
import { useCapper } from '../api/get-capper';
import { GradedPickItem, OpenPickItem, SelfReportedTable } from '../components/pick-items';
import { RecordStats } from '../components/record-stats';
import {
  betsInPicks,
  clvTrendClass,
  formatRecordClv,
  formatRoi,
  formatUnits,
  formatWinPct,
  formatWlp,
  trendClass,
} from '../components/record-figures';
import { UnitsChart } from '../components/units-chart';

const PAGE_SIZE = 20;

/**
 * A capper's storefront: who they are, the open picks on sale (price, Buy), then the verified record by
 * period and league, charted, then every graded pick.
 */
export function CapperPage() {
  const { username = '' } = useParams<{ username: string }>();
  const [offset, setOffset] = useState(0);
  const { data, isPending, isError, error, isPlaceholderData } = useCapper(username, {
    limit: PAGE_SIZE,
    offset,
  });
  useDocumentTitle(data ? `${data.capper.displayName ?? data.capper.username}'s record` : 'Capper');

  if (isPending) return <ProfileSkeleton />;
  if (isError) {
    if (errorStatus(error) === 404 || errorStatus(error) === 400)
      return <CapperNotFound username={username} />;
    return (
      <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6">
        <p
          role="alert"
          className="flex items-center gap-2 rounded-card border border-destructive/30 bg-card p-6 text-destructive"
        >
          <AlertTriangle aria-hidden className="size-5 shrink-0" />
          Could not load this record: {errorMessage(error)}
        </p>
      </div>
    );
  }
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-10 px-4 py-8 sm:px-6 lg:px-8">
      <CapperHeader profile={data} />
      <PlansSection username={data.capper.username} />
      {/* A storefront: what can be bought now comes first, then the record that backs it, then history. */}
      <OpenPicksSection profile={data} />
      <RecordSection profile={data} />
      <section aria-labelledby="chart-heading" className="grid gap-4">
        <h2 id="chart-heading" className="text-lg font-semibold tracking-tight">
          Units over time
        </h2>
        <Card className="p-5">
          <UnitsChart points={data.chart} />
        </Card>
      </section>
      <LeagueSection profile={data} />
      <section aria-labelledby="graded-heading" className="grid gap-4" aria-busy={isPlaceholderData}>
        <div className="grid gap-1">
          <h2 id="graded-heading" className="text-lg font-semibold tracking-tight">
            Graded picks ({data.gradedTotal.toLocaleString('en-US')})
          </h2>
          <p className="text-sm text-muted-foreground">
            History: every counted pick, newest grade first, with its legs revealed. Free to read.
          </p>
        </div>
        {data.graded.length === 0 ? (
          <p className="rounded-card border border-dashed bg-card p-8 text-center text-muted-foreground">
            No graded picks yet. Picks are graded from the final score once every leg has finished.
          </p>
        ) : (
          <>
            <ul className={cn('grid gap-3 transition-opacity', isPlaceholderData && 'opacity-60')}>
              {data.graded.map((pick) => (
                <GradedPickItem key={pick.videoId} pick={pick} />
              ))}
            </ul>
            {data.gradedTotal > PAGE_SIZE && (
              <nav aria-label="Graded picks pages" className="flex items-center justify-between gap-4">
                <Button
                  variant="outline"
                  disabled={offset === 0}
                  onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
                >
                  Newer
                </Button>
                <span className="text-sm text-muted-foreground" aria-live="polite">
                  {offset + 1}–{Math.min(offset + PAGE_SIZE, data.gradedTotal)} of {data.gradedTotal}
                </span>
                <Button
                  variant="outline"
                  disabled={offset + PAGE_SIZE >= data.gradedTotal}
                  onClick={() => setOffset(offset + PAGE_SIZE)}
                >
                  Older
                </Button>
              </nav>
            )}
          </>
        )}
      </section>
      <SelfReportedSection profile={data} />
      <Unverified profile={data} />
    </div>
  );
}

/** Picks still sealed: on sale until their first game starts, then "Sales closed" until graded. */
function OpenPicksSection({ profile }: { profile: CapperProfile }) {
  const onSale = profile.open.filter((pick) => pick.status === 'open').length;
  return (
    <section aria-labelledby="open-heading" className="grid gap-4">
      <div className="grid gap-1">
        <h2 id="open-heading" className="text-lg font-semibold tracking-tight">
          Open picks ({profile.open.length})
        </h2>
        {profile.open.length > 0 && (
          <p className="text-sm text-muted-foreground">
            {onSale === 0 ? 'None on sale: their first games have started.' : `${onSale} on sale.`} Each stays
            sealed until its games are graded; sales close when its first game starts.
          </p>
        )}
      </div>
      {profile.open.length === 0 ? (
        <p className="rounded-card border border-dashed bg-card p-8 text-center text-muted-foreground">
          No open picks right now.
        </p>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2">
          {profile.open.map((pick) => (
            <OpenPickItem key={pick.videoId} pick={pick} capperUsername={profile.capper.username} />
          ))}
        </ul>
      )}
    </section>
  );
}

function CapperHeader({ profile }: { profile: CapperProfile }) {
  const { capper } = profile;
  const name = capper.displayName ?? capper.username;
  const record = profile.records.all;
  return (
    <header className="flex flex-wrap items-center gap-4">
      <span data-testid="capper-avatar" className="contents">
        <Avatar name={name} src={capper.avatarUrl} className="size-20 text-3xl" />
      </span>
      <div className="grid min-w-0 flex-1 gap-1">
        {/* anywhere, not break-word: a long name without spaces must also narrow the header's width on a phone */}
        <h1 className="text-3xl font-bold tracking-tight [overflow-wrap:anywhere]">{name}</h1>
        {capper.displayName && (
          <p className="text-muted-foreground [overflow-wrap:anywhere]">@{capper.username}</p>
        )}
        {capper.bio && (
          <p className="max-w-prose whitespace-pre-line [overflow-wrap:anywhere]" data-testid="capper-bio">
            {capper.bio}
          </p>
        )}
        <p className="text-sm font-medium tabular-nums" data-testid="record-summary">
          {record.graded === 0 ? (
            <span className="text-muted-foreground">Verified record: no graded picks yet</span>
          ) : (
            <>
              Verified {formatWlp(record)} ·{' '}
              <span className={trendClass(record.unitsWon)}>{formatUnits(record.unitsWon)}</span> · ROI{' '}
              {formatRoi(record)} · {betsInPicks(record)}
            </>
          )}
        </p>
        {/* The follow button takes its room while it loads; on the capper's own storefront it is absent. */}
        <FollowButton username={capper.username} name={name} size="md" className="mt-2" />
      </div>
    </header>
  );
}

function RecordSection({ profile }: { profile: CapperProfile }) {
  const periods = [
    { value: 'last30', label: '30 days', record: profile.records.last30 },
    { value: 'last90', label: '90 days', record: profile.records.last90 },
    { value: 'all', label: 'All time', record: profile.records.all },
  ] as const;
  return (
    <section aria-labelledby="record-heading" className="grid gap-3">
      <h2 id="record-heading" className="text-lg font-semibold tracking-tight">
        Verified record
      </h2>
      <p className="text-sm text-muted-foreground">
        Every counted pick is sealed when posted, on a market game at a price no better than the best among
        books, and graded from the final score; deleting a pick does not take it off the record. The record
        counts bets: each leg of a straight pick, a parlay as one.{' '}
        {/* The record can be checked against the public log without trusting the site. */}
        <Link
          href={`/log?capper=${encodeURIComponent(profile.capper.username)}`}
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          Verify this record in the public pick log
        </Link>
      </p>
      <Tabs defaultValue="all">
        <TabsList aria-label="Period">
          {periods.map((period) => (
            <TabsTrigger key={period.value} value={period.value}>
              {period.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {periods.map((period) => (
          <TabsContent key={period.value} value={period.value} className="mt-4">
            <RecordStats record={period.record} />
          </TabsContent>
        ))}
      </Tabs>
    </section>
  );
}

function LeagueSection({ profile }: { profile: CapperProfile }) {
  return (
    <section aria-labelledby="league-heading" className="grid gap-4">
      <h2 id="league-heading" className="text-lg font-semibold tracking-tight">
        By league
      </h2>
      {profile.byLeague.length === 0 ? (
        <p className="rounded-card border border-dashed bg-card p-8 text-center text-muted-foreground">
          No graded picks in any league yet.
        </p>
      ) : (
        <>
          {/* Phones: a card per league with every figure labelled; from `md` up, the table. Only one of the
              two is displayed at a time. Should the table ever be wider than its card, it scrolls in a
              labelled region a keyboard can reach. */}
          <ul aria-label="All-time record in each league" className="grid gap-2 md:hidden">
            {profile.byLeague.map(({ league, record }) => (
              <li key={league} className="grid gap-2 rounded-card border bg-card p-4 shadow-xs">
                <div className="flex items-baseline justify-between gap-3">
                  <span className="font-semibold">{league}</span>
                  <span className={cn('font-semibold tabular-nums', trendClass(record.unitsWon))}>
                    {formatUnits(record.unitsWon)}
                  </span>
                </div>
                <dl className="grid grid-cols-3 gap-x-3 gap-y-2 text-sm">
                  {leagueFigures(record).map((figure) => (
                    <div key={figure.label} className="grid gap-0.5">
                      <dt className="text-xs text-muted-foreground">{figure.label}</dt>
                      <dd className={cn('font-medium tabular-nums', figure.tone)}>{figure.value}</dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
          <Card
            role="region"
            aria-label="All-time record in each league, table"
            tabIndex={0}
            className="hidden overflow-x-auto focus-visible:outline-2 focus-visible:outline-offset-2 md:block"
          >
            <table className="w-full text-sm whitespace-nowrap">
              <caption className="sr-only">All-time record in each league</caption>
              <thead className="border-b bg-muted/60 text-left text-xs tracking-wide text-muted-foreground uppercase">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    League
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">
                    W-L-P
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">
                    Win %
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">
                    Units
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">
                    ROI
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">
                    CLV
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">
                    Bets
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {profile.byLeague.map(({ league, record }) => (
                  <tr key={league}>
                    <th scope="row" className="px-4 py-3 text-left font-medium">
                      {league}
                    </th>
                    <td className="px-4 py-3 text-right tabular-nums">{formatWlp(record)}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{formatWinPct(record)}</td>
                    <td className={cn('px-4 py-3 text-right tabular-nums', trendClass(record.unitsWon))}>
                      {formatUnits(record.unitsWon)}
                    </td>
                    <td className={cn('px-4 py-3 text-right tabular-nums', trendClass(record.roi))}>
                      {formatRoi(record)}
                    </td>
                    <td className={cn('px-4 py-3 text-right tabular-nums', clvTrendClass(record))}>
                      {formatRecordClv(record)}
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums">{record.graded}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        </>
      )}
    </section>
  );
}

/** A league's figures for its card on a phone: the table's columns, each with its label. */
function leagueFigures(record: CapperProfile['records']['all']) {
  return [
    { label: 'W-L-P', value: formatWlp(record), tone: '' },
    { label: 'Win %', value: formatWinPct(record), tone: '' },
    { label: 'ROI', value: formatRoi(record), tone: trendClass(record.roi) },
    { label: 'CLV', value: formatRecordClv(record), tone: clvTrendClass(record) },
    { label: 'Bets', value: String(record.graded), tone: '' },
  ];
}

/** docs/decisions/025: graded picks with a self-reported leg, shown for what they are and never counted. */
function SelfReportedSection({ profile }: { profile: CapperProfile }) {
  if (profile.selfReportedTotal === 0) return null;
  const shown = profile.selfReported.length;
  return (
    <section aria-labelledby="self-reported-heading" className="grid gap-3" data-testid="self-reported-picks">
      <h2 id="self-reported-heading" className="text-lg font-semibold tracking-tight">
        Self-reported picks ({profile.selfReportedTotal.toLocaleString('en-US')})
      </h2>
      <p className="text-sm text-muted-foreground">
        Picks with a leg the market does not price (a prop, a league it does not follow, or posted before the
        market): sealed and graded like the others, but the capper typed the price, so they never count in the
        record above.
        {shown < profile.selfReportedTotal && ` The latest ${shown} are listed.`}
      </p>
      <SelfReportedTable picks={profile.selfReported} />
    </section>
  );
}

function Unverified({ profile }: { profile: CapperProfile }) {
  return (
    <section aria-labelledby="unverified-heading" className="grid gap-2">
      <h2 id="unverified-heading" className="text-lg font-semibold tracking-tight">
        Not on the record
      </h2>
      <p data-testid="unverified-count" className="text-muted-foreground">
        {profile.unverified === 0
          ? 'Every video this capper posted carries a sealed pick.'
          : `${profile.unverified} ${profile.unverified === 1 ? 'video was' : 'videos were'} posted without a sealed pick (unverified): they never count in the record.`}
      </p>
      {profile.removedByModeration > 0 && (
        <p className="flex items-center gap-2 text-muted-foreground">
          <ShieldAlert aria-hidden className="size-4 shrink-0" />
          {profile.removedByModeration} {profile.removedByModeration === 1 ? 'pick was' : 'picks were'}{' '}
          removed by moderation; {profile.removedByModeration === 1 ? 'its result is' : 'their results are'}{' '}
          not shown.
        </p>
      )}
    </section>
  );
}

function ProfileSkeleton() {
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-10 px-4 py-8 sm:px-6 lg:px-8" aria-busy>
      <span className="sr-only" role="status">
        Loading the record…
      </span>
      <div className="flex items-center gap-4">
        <Skeleton className="size-20 rounded-full" />
        <div className="grid flex-1 gap-2">
          <Skeleton className="h-8 w-48" />
          <Skeleton className="h-4 w-72 max-w-full" />
        </div>
      </div>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} className="h-20 rounded-card" />
        ))}
      </div>
      <Skeleton className="h-60 rounded-card" />
      <Skeleton className="h-32 rounded-card" />
    </div>
  );
}

function CapperNotFound({ username }: { username: string }) {
  return (
    <div className="mx-auto grid w-full max-w-xl justify-items-center gap-4 px-4 py-16 text-center">
      <h1 className="text-3xl font-bold tracking-tight">Capper not found</h1>
      <p className="text-muted-foreground">
        Nobody goes by “{username}” on {PRODUCT_NAME}.
      </p>
      <Link href="/leaderboard" className={buttonClasses('primary', 'md')}>
        See the leaderboard
      </Link>
    </div>
  );
}
