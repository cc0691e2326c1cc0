import { useId } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { AlertTriangle, Trophy } from 'lucide-react';
import {
  LEADERBOARD_MIN_PICKS,
  LEADERBOARD_PERIODS,
  LEADERBOARD_SORTS,
  type LeaderboardPeriod,
  type LeaderboardSort,
} from '#common/capper-records.js';
import type { LeaderboardEntry } from '#common/schemas/cappers.js';
import { LEAGUES, type League } from '#common/leagues.js';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Card } from '#client/components/ui/card.tsx';
import { NativeSelect } from '#client/components/ui/native-select.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { cn } from '#client/lib/cn.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { LEADERBOARD_PAGE_SIZE, useLeaderboard, type LeaderboardFilters } from '../api/get-leaderboard';
import {
  clvTrendClass,
  CLV_EXPLANATION,
  formatRecordClv,
  formatRoi,
  formatUnits,
  formatWinPct,
  formatWlp,
  trendClass,
} from '../components/record-figures';

const PERIOD_LABEL: Record<LeaderboardPeriod, string> = {
  '30': 'Last 30 days',
  '90': 'Last 90 days',
  all: 'All time',
};
const SORT_LABEL: Record<LeaderboardSort, string> = {
  units: 'Units won',
  roi: 'ROI',
  clv: 'Closing line value',
};

/** The filters live in the URL, so a ranking can be shared; anything unknown falls back to the default. */
function filtersOf(search: string): LeaderboardFilters {
  const params = new URLSearchParams(search);
  const period = params.get('period');
  const league = params.get('league');
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  return {
    period: LEADERBOARD_PERIODS.find((value) => value === period) ?? 'all',
    league: LEAGUES.find((value) => value === league) ?? null,
    sort: LEADERBOARD_SORTS.find((value) => value === sort) ?? 'units',
    offset: Number.isInteger(page) && page > 1 ? (page - 1) * LEADERBOARD_PAGE_SIZE : 0,
  };
}

function searchOf(filters: LeaderboardFilters): string {
  const params = new URLSearchParams();
  if (filters.period !== 'all') params.set('period', filters.period);
  if (filters.league) params.set('league', filters.league);
  if (filters.sort !== 'units') params.set('sort', filters.sort);
  if (filters.offset > 0) params.set('page', String(filters.offset / LEADERBOARD_PAGE_SIZE + 1));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * docs/decisions/020, 025: cappers ranked by units won, ROI or closing line value over the bets of
 * their verified picks, with the sample size always shown.
 */
export function LeaderboardPage() {
  useDocumentTitle('Leaderboard');
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = filtersOf(search);
  const { data, isPending, isError, error, isPlaceholderData } = useLeaderboard(filters);
  const change = (next: Partial<LeaderboardFilters>) =>
    navigate(`/leaderboard${searchOf({ ...filters, offset: 0, ...next })}`, { replace: true });
  const ids = { period: useId(), league: useId(), sort: useId() };
  const caption = `${SORT_LABEL[filters.sort]}, ${PERIOD_LABEL[filters.period]}, ${filters.league ?? 'all leagues'}`;

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6 px-4 py-8 sm:px-6 lg:px-8">
      <header className="grid gap-2">
        <h1 className="flex items-center gap-2 text-3xl font-bold tracking-tight">
          <Trophy aria-hidden className="size-7 text-amber-500" />
          Leaderboard
        </h1>
        <p className="max-w-prose text-muted-foreground">
          Cappers ranked by their verified record: picks sealed when posted at the market&apos;s prices and
          graded from the final score. Only cappers with at least {LEADERBOARD_MIN_PICKS} decided bets (wins
          and losses) in the period are ranked; self-reported picks never count.
        </p>
        <p className="max-w-prose text-sm text-muted-foreground">
          <abbr title="Closing line value" className="font-semibold no-underline">
            CLV
          </abbr>
          : {CLV_EXPLANATION}
        </p>
      </header>

      <form
        aria-label="Leaderboard filters"
        className="grid gap-3 sm:grid-cols-3"
        onSubmit={(event) => event.preventDefault()}
      >
        <div className="grid gap-1.5">
          <label htmlFor={ids.period} className="text-sm font-medium">
            Period
          </label>
          <NativeSelect
            id={ids.period}
            value={filters.period}
            onChange={(event) => change({ period: event.target.value as LeaderboardPeriod })}
          >
            {LEADERBOARD_PERIODS.map((period) => (
              <option key={period} value={period}>
                {PERIOD_LABEL[period]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <label htmlFor={ids.league} className="text-sm font-medium">
            League
          </label>
          <NativeSelect
            id={ids.league}
            value={filters.league ?? ''}
            onChange={(event) => change({ league: (event.target.value || null) as League | null })}
          >
            <option value="">All leagues</option>
            {LEAGUES.map((league) => (
              <option key={league} value={league}>
                {league}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <label htmlFor={ids.sort} className="text-sm font-medium">
            Rank by
          </label>
          <NativeSelect
            id={ids.sort}
            value={filters.sort}
            onChange={(event) => change({ sort: event.target.value as LeaderboardSort })}
          >
            {LEADERBOARD_SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {SORT_LABEL[sort]}
              </option>
            ))}
          </NativeSelect>
        </div>
      </form>

      {isPending ? (
        <div className="grid gap-2" aria-busy>
          <span className="sr-only" role="status">
            Loading the leaderboard…
          </span>
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-14 rounded-card" />
          ))}
        </div>
      ) : isError ? (
        <p
          role="alert"
          className="flex items-center gap-2 rounded-card border border-destructive/30 bg-card p-6 text-destructive"
        >
          <AlertTriangle aria-hidden className="size-5 shrink-0" />
          Could not load the leaderboard: {errorMessage(error)}
        </p>
      ) : data.entries.length === 0 ? (
        <div
          role="status"
          className="grid justify-items-center gap-2 rounded-card border border-dashed bg-card p-10 text-center"
        >
          <p className="font-semibold">No capper is ranked here yet.</p>
          <p className="max-w-prose text-muted-foreground">
            A capper joins the leaderboard with at least {LEADERBOARD_MIN_PICKS} decided bets in the period
            {filters.league ? ` in ${filters.league}` : ''}. Try a longer period or all leagues.
          </p>
        </div>
      ) : (
        <div
          className={cn('grid gap-4 transition-opacity', isPlaceholderData && 'opacity-60')}
          aria-busy={isPlaceholderData}
        >
          <p className="sr-only" aria-live="polite">
            {data.total} {data.total === 1 ? 'capper' : 'cappers'} ranked by {caption}.
          </p>
          {/* Phones: a card per capper, every figure in view (a table this wide would scroll sideways and
              hide the pick count); from `sm` up, the table. Only one of the two is displayed at a time. */}
          <ol aria-label={`Cappers ranked by ${caption}`} className="grid gap-2 sm:hidden">
            {data.entries.map((entry) => (
              <PhoneRow key={entry.username} entry={entry} />
            ))}
          </ol>
          <Card className="hidden overflow-x-auto sm:block">
            <table className="w-full text-sm">
              <caption className="sr-only">Cappers ranked by {caption}</caption>
              <thead className="border-b bg-muted/60 text-left text-xs tracking-wide text-muted-foreground uppercase">
                <tr>
                  <th scope="col" className="px-3 py-3 font-semibold">
                    Rank
                  </th>
                  <th scope="col" className="px-3 py-3 font-semibold">
                    Capper
                  </th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold">
                    Units
                  </th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold">
                    ROI
                  </th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold">
                    Win %
                  </th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold">
                    <abbr title="Closing line value" className="no-underline">
                      CLV
                    </abbr>
                  </th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold">
                    W-L-P
                  </th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold">
                    Bets
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {data.entries.map((entry) => (
                  <Row key={entry.username} entry={entry} sort={filters.sort} />
                ))}
              </tbody>
            </table>
          </Card>
          {data.total > LEADERBOARD_PAGE_SIZE && (
            <nav aria-label="Leaderboard pages" className="flex items-center justify-between gap-4">
              <Button
                variant="outline"
                disabled={filters.offset === 0}
                onClick={() => change({ offset: filters.offset - LEADERBOARD_PAGE_SIZE })}
              >
                Previous
              </Button>
              <span className="text-sm text-muted-foreground">
                {filters.offset + 1}–{Math.min(filters.offset + LEADERBOARD_PAGE_SIZE, data.total)} of{' '}
                {data.total}
              </span>
              <Button
                variant="outline"
                disabled={filters.offset + LEADERBOARD_PAGE_SIZE >= data.total}
                onClick={() => change({ offset: filters.offset + LEADERBOARD_PAGE_SIZE })}
              >
                Next
              </Button>
            </nav>
          )}
        </div>
      )}
    </div>
  );
}

function Row({ entry, sort }: { entry: LeaderboardEntry; sort: LeaderboardSort }) {
  const { record } = entry;
  // The figure the ranking is by stands out.
  const ranked = (by: LeaderboardSort) => (sort === by ? 'font-semibold' : undefined);
  return (
    <tr>
      <td className="px-3 py-3 font-bold tabular-nums">{entry.rank}</td>
      <th scope="row" className="px-3 py-3 text-left font-medium">
        <CapperLink entry={entry} />
      </th>
      <td className={cn('px-3 py-3 text-right tabular-nums', ranked('units'), trendClass(record.unitsWon))}>
        {formatUnits(record.unitsWon)}
      </td>
      <td className={cn('px-3 py-3 text-right tabular-nums', ranked('roi'), trendClass(record.roi))}>
        {formatRoi(record)}
      </td>
      <td className="px-3 py-3 text-right tabular-nums">{formatWinPct(record)}</td>
      <td className={cn('px-3 py-3 text-right tabular-nums', ranked('clv'), clvTrendClass(record))}>
        {formatRecordClv(record)}
        {record.clv && (
          <span className="block text-xs font-normal text-muted-foreground">
            {record.clv.beatPct}% beat the close
          </span>
        )}
      </td>
      <td className="px-3 py-3 text-right tabular-nums">{formatWlp(record)}</td>
      <td className="px-3 py-3 text-right tabular-nums">{record.graded}</td>
    </tr>
  );
}

function CapperLink({ entry, className }: { entry: LeaderboardEntry; className?: string }) {
  return (
    <Link
      href={`/cappers/${encodeURIComponent(entry.username)}`}
      className={cn('flex min-w-0 items-center gap-2 hover:underline', className)}
    >
      <Avatar name={entry.username} src={entry.avatarUrl} className="size-8 text-xs" />
      <span className="max-w-[10rem] truncate">{entry.displayName ?? entry.username}</span>
    </Link>
  );
}

/** A ranked capper on a phone: rank, name and units on one line, the rest of the record below it. */
function PhoneRow({ entry }: { entry: LeaderboardEntry }) {
  const { record } = entry;
  const figures: [string, string, string?][] = [
    ['ROI', formatRoi(record), trendClass(record.roi)],
    ['CLV', formatRecordClv(record), clvTrendClass(record)],
    ['Win %', formatWinPct(record)],
    ['W-L-P', formatWlp(record)],
    ['Bets', String(record.graded)],
  ];
  return (
    <li className="rounded-card border bg-card p-3 shadow-xs">
      <div className="flex items-center gap-3">
        <span className="w-7 shrink-0 text-center font-bold tabular-nums">
          <span className="sr-only">Rank </span>
          {entry.rank}
        </span>
        <CapperLink entry={entry} className="font-medium" />
        <span className={cn('ml-auto shrink-0 font-semibold tabular-nums', trendClass(record.unitsWon))}>
          {formatUnits(record.unitsWon)}
        </span>
      </div>
      <dl className="mt-2 grid grid-cols-5 gap-2 pl-10 text-xs">
        {figures.map(([label, value, tone]) => (
          <div key={label} className="grid gap-0.5">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className={cn('font-medium tabular-nums', tone)}>{value}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
}
