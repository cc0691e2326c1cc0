import { Link, useLocation, useSearch } from 'wouter';
import { AlertTriangle, ArrowLeft } from 'lucide-react';
import { formatDollars } from '#common/money.js';
import type { Analytics, AnalyticsBucket } from '#common/schemas/analytics.js';
import { buttonClasses } from '#client/components/ui/button.tsx';
import { Card } from '#client/components/ui/card.tsx';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '#client/components/ui/collapsible.tsx';
import { CardList, DataCard, DataField, ResponsiveTable } from '#client/components/ui/responsive-table.tsx';
import { ScrollRegion } from '#client/components/ui/scroll-region.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { cn } from '#client/lib/cn.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { useAnalytics, type AnalyticsRange } from '../api/get-analytics';
import { BarChart, type ChartPoint } from '../components/bar-chart';

const RANGES: { value: AnalyticsRange; label: string; period: string }[] = [
  { value: 'day', label: 'Daily', period: 'last 30 days' },
  { value: 'week', label: 'Weekly', period: 'last 12 weeks' },
];

// Buckets start at UTC midnight; formatting them in UTC keeps "Mar 14" from becoming "Mar 13" westward.
const DAY_LABEL = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

function bucketLabel(bucket: AnalyticsBucket, range: AnalyticsRange): string {
  const day = DAY_LABEL.format(new Date(bucket.start));
  return range === 'week' ? `Week of ${day}` : day;
}

const count = (noun: string) => (value: number) => {
  const rounded = Math.round(value * 10) / 10;
  return `${rounded} ${noun}${rounded === 1 ? '' : 's'}`;
};
const dollars = (value: number) => formatDollars(value);
const percent = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;

function rangeOf(search: string): AnalyticsRange {
  return new URLSearchParams(search).get('range') === 'week' ? 'week' : 'day';
}

/**
 * docs/product-decisions.md 'Screens the spec does not show': the dashboard's Analytics 'View' — sales and views
 * over time, and a per-video table.
 */
export function AnalyticsPage() {
  useDocumentTitle('Analytics');
  const search = useSearch();
  const [, navigate] = useLocation();
  const range = rangeOf(search);
  const { data, isPending, isError, error, isPlaceholderData } = useAnalytics(range);

  return (
    <div className="mx-auto grid w-full max-w-7xl gap-8 px-4 py-8 sm:px-6 lg:px-8">
      <header className="grid gap-2">
        <Link
          href="/dashboard"
          className="inline-flex w-fit items-center gap-1.5 text-sm font-medium text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft aria-hidden className="size-4" />
          Dashboard
        </Link>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <h1 className="text-3xl font-bold tracking-tight">Analytics</h1>
          <div role="group" aria-label="Time range" className="inline-flex gap-1 rounded-xl bg-muted p-1">
            {RANGES.map((option) => (
              <button
                key={option.value}
                type="button"
                aria-pressed={range === option.value}
                onClick={() => navigate(`/dashboard/analytics?range=${option.value}`, { replace: true })}
                className={cn(
                  'h-9 cursor-pointer rounded-lg px-4 text-sm font-semibold text-muted-foreground transition-colors hover:text-foreground',
                  'aria-pressed:bg-card aria-pressed:text-foreground aria-pressed:shadow-sm',
                )}
              >
                {option.label}
              </button>
            ))}
          </div>
        </div>
      </header>

      {isPending ? (
        <PageSpinner label="Loading analytics" />
      ) : isError ? (
        <p
          role="alert"
          className="flex items-center gap-2 rounded-card border border-destructive/30 bg-card p-6 text-destructive"
        >
          <AlertTriangle aria-hidden className="size-5 shrink-0" />
          Could not load analytics: {errorMessage(error)}
        </p>
      ) : (
        <div
          className={cn('grid gap-8 transition-opacity', isPlaceholderData && 'opacity-60')}
          aria-busy={isPlaceholderData}
        >
          <Totals totals={data.totals} />
          <OverTime analytics={data} />
          <PerVideo analytics={data} />
        </div>
      )}
    </div>
  );
}

function Totals({ totals }: { totals: Analytics['totals'] }) {
  const items = [
    { label: 'Views', value: totals.views.toLocaleString('en-US') },
    { label: 'Sales', value: totals.sales.toLocaleString('en-US') },
    { label: 'Revenue', value: formatDollars(totals.revenue) },
    { label: 'Conversion', value: percent(totals.views > 0 ? totals.sales / totals.views : 0) },
  ];
  return (
    <section aria-labelledby="totals-heading" className="grid gap-3">
      <h2 id="totals-heading" className="text-lg font-semibold tracking-tight">
        All time
      </h2>
      <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {items.map((item) => (
          <Card key={item.label} className="grid gap-1 p-5">
            <dt className="text-sm font-medium text-muted-foreground">{item.label}</dt>
            <dd className="text-2xl font-bold tracking-tight tabular-nums">{item.value}</dd>
          </Card>
        ))}
      </dl>
    </section>
  );
}

function OverTime({ analytics }: { analytics: Analytics }) {
  const { range, buckets } = analytics;
  const period = RANGES.find((option) => option.value === range)!.period;
  const series = (pick: (bucket: AnalyticsBucket) => number): ChartPoint[] =>
    buckets.map((bucket) => ({
      label: bucketLabel(bucket, range),
      tick: DAY_LABEL.format(new Date(bucket.start)),
      value: pick(bucket),
    }));
  const empty = buckets.every((bucket) => bucket.sales === 0 && bucket.views === 0);

  return (
    <section aria-labelledby="over-time-heading" className="grid gap-4">
      <h2 id="over-time-heading" className="text-lg font-semibold tracking-tight">
        Over the {period}
      </h2>
      {empty ? (
        <p className="rounded-card border border-dashed bg-card p-10 text-center text-muted-foreground">
          No sales or views in the {period}. Share your videos to get your first buyers.
        </p>
      ) : (
        <Card className="grid gap-8 p-5 lg:grid-cols-3">
          <BarChart title="Sales (count)" points={series((b) => b.sales)} format={count('sale')} integer />
          <BarChart
            title="Sales amount"
            points={series((b) => b.revenue)}
            format={dollars}
            barClassName="fill-amber-500"
          />
          <BarChart
            title="Views"
            points={series((b) => b.views)}
            format={count('view')}
            integer
            barClassName="fill-sky-600"
          />
          <Collapsible className="lg:col-span-3">
            <CollapsibleTrigger className="w-fit">Show the numbers as a table</CollapsibleTrigger>
            <CollapsibleContent className="mt-2">
              <ScrollRegion aria-label="Sales, sales amount and views per period">
                <table className="w-full text-sm">
                  <caption className="sr-only">Sales, sales amount and views per period</caption>
                  <thead className="border-b text-left text-xs tracking-wide text-muted-foreground uppercase">
                    <tr>
                      <th scope="col" className="py-2 pr-4 font-semibold">
                        {range === 'week' ? 'Week' : 'Day'}
                      </th>
                      <th scope="col" className="py-2 pr-4 text-right font-semibold">
                        Sales
                      </th>
                      <th scope="col" className="py-2 pr-4 text-right font-semibold">
                        Amount
                      </th>
                      <th scope="col" className="py-2 text-right font-semibold">
                        Views
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y">
                    {buckets.map((bucket) => (
                      <tr key={bucket.start}>
                        <th scope="row" className="py-1.5 pr-4 text-left font-normal">
                          {bucketLabel(bucket, range)}
                        </th>
                        <td className="py-1.5 pr-4 text-right tabular-nums">{bucket.sales}</td>
                        <td className="py-1.5 pr-4 text-right tabular-nums">
                          {formatDollars(bucket.revenue)}
                        </td>
                        <td className="py-1.5 text-right tabular-nums">{bucket.views}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
            </CollapsibleContent>
          </Collapsible>
        </Card>
      )}
    </section>
  );
}

function PerVideo({ analytics }: { analytics: Analytics }) {
  return (
    <section aria-labelledby="per-video-heading" className="grid gap-4">
      <h2 id="per-video-heading" className="text-lg font-semibold tracking-tight">
        Your videos
      </h2>
      {analytics.videos.length === 0 ? (
        <div className="grid justify-items-center gap-4 rounded-card border border-dashed bg-card p-10 text-center">
          <p className="text-muted-foreground">No videos uploaded yet, so there is nothing to measure.</p>
          <Link href="/upload" className={buttonClasses('primary', 'md')}>
            Upload Your First Video
          </Link>
        </div>
      ) : (
        <ResponsiveTable
          table={
            <Card>
              <ScrollRegion
                aria-label="Your videos table"
                className="rounded-card focus-visible:-outline-offset-2"
              >
                <table className="w-full text-sm">
                  <caption className="sr-only">
                    Views, sales, revenue and conversion for each of your videos
                  </caption>
                  <thead className="border-b bg-muted/60 text-left text-xs tracking-wide text-muted-foreground uppercase">
                    <tr>
                      <th scope="col" className="px-5 py-3 font-semibold">
                        Video
                      </th>
                      <th scope="col" className="px-5 py-3 text-right font-semibold">
                        Views
                      </th>
                      <th scope="col" className="px-5 py-3 text-right font-semibold">
                        Sales
                      </th>
                      <th scope="col" className="px-5 py-3 text-right font-semibold">
                        Revenue
                      </th>
                      <th scope="col" className="px-5 py-3 text-right font-semibold">
                        Conversion
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y">
                    {analytics.videos.map((video) => (
                      <tr key={video.id}>
                        <th scope="row" className="max-w-xs px-5 py-3 text-left font-medium">
                          <Link href={`/video/${video.id}`} className="line-clamp-2 hover:underline">
                            {video.title}
                          </Link>
                        </th>
                        <td className="px-5 py-3 text-right tabular-nums">
                          {video.views.toLocaleString('en-US')}
                        </td>
                        <td className="px-5 py-3 text-right tabular-nums">
                          {video.sales.toLocaleString('en-US')}
                        </td>
                        <td className="px-5 py-3 text-right tabular-nums">{formatDollars(video.revenue)}</td>
                        <td className="px-5 py-3 text-right tabular-nums">{percent(video.conversion)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
            </Card>
          }
          cards={
            <CardList label="Your videos">
              {analytics.videos.map((video) => (
                <DataCard
                  key={video.id}
                  title={
                    <Link href={`/video/${video.id}`} className="hover:underline">
                      {video.title}
                    </Link>
                  }
                >
                  <DataField label="Views" numeric>
                    {video.views.toLocaleString('en-US')}
                  </DataField>
                  <DataField label="Sales" numeric>
                    {video.sales.toLocaleString('en-US')}
                  </DataField>
                  <DataField label="Revenue" numeric>
                    {formatDollars(video.revenue)}
                  </DataField>
                  <DataField label="Conversion" numeric>
                    {percent(video.conversion)}
                  </DataField>
                </DataCard>
              ))}
            </CardList>
          }
        />
      )}
    </section>
  );
}
