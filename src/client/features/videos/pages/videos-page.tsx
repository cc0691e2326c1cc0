import { useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { useQueries } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { CATEGORIES, type Category } from '#common/constants.js';
import type { VIDEO_PAGE_SIZE, Video, VideoSort, VideoStatus } from '#common/schemas/videos.js';
import { Button, buttonClasses } from '#client/components/ui/button.tsx';
import { Label } from '#client/components/ui/label.tsx';
import { NativeSelect } from '#client/components/ui/native-select.tsx';
import { errorMessage } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { useCapperSearch } from '#client/features/cappers/index.ts';
import { CapperMatches } from '../components/capper-matches';
import { getVideosQueryOptions } from '../api/get-videos';
import { VideoGrid, VideoGridEmpty, VideoGridError, VideoGridSkeleton } from '../components/video-grid';

// The server's page (schemas/videos.ts), typed against it: importing the value would bring zod to this page.
const PAGE_SIZE: typeof VIDEO_PAGE_SIZE = 24;
/** The server refuses offsets past 100,000 (VIDEO_OFFSET_MAX). */
const OFFSET_MAX = 100_000;
const SEARCH_MAX_LENGTH = 100;

const SORT_OPTIONS: { value: VideoSort; label: string }[] = [
  { value: 'newest', label: 'Newest' },
  { value: 'price_asc', label: 'Price: low to high' },
  { value: 'price_desc', label: 'Price: high to low' },
  { value: 'record', label: 'Capper record' },
];

/** How each order reads after "Showing 12 picks". */
const SORT_PHRASES: Record<VideoSort, string> = {
  newest: 'newest first',
  price_asc: 'lowest price first',
  price_desc: 'highest price first',
  popular: 'most viewed first',
  record: "best capper's verified record first",
};

const STATUS_OPTIONS: { value: VideoStatus; label: string }[] = [
  { value: 'open', label: 'On sale' },
  { value: 'graded', label: 'Graded' },
];

function parseStatus(value: string | null): VideoStatus | undefined {
  return STATUS_OPTIONS.find((option) => option.value === value)?.value;
}

function parseCategory(value: string | null): Category | undefined {
  return CATEGORIES.find((category) => category === value);
}

function parseSort(value: string | null): VideoSort {
  return SORT_OPTIONS.find((option) => option.value === value)?.value ?? 'newest';
}

type Filters = { q?: string; category?: Category; status?: VideoStatus; sort: VideoSort };

/** What the list shows, in words: 'Showing 3 NBA picks on sale matching “duke”, lowest price first'. */
function describeResults(count: number, filters: Filters): string {
  const noun = count === 1 ? 'pick' : 'picks';
  const graded = filters.status === 'graded' ? 'graded ' : '';
  const league = filters.category ? `${filters.category} ` : '';
  const onSale = filters.status === 'open' ? ' on sale' : '';
  const matching = filters.q ? ` matching “${filters.q}”` : '';
  return `Showing ${count} ${graded}${league}${noun}${onSale}${matching}, ${SORT_PHRASES[filters.sort]}`;
}

/**
 * docs/product-decisions.md 'Screens the spec does not show': /videos is the all-selections listing; `?q=` shows the
 * matches for that text (the navigation search sends people here). Category and sort live in the URL too, so
 * a filtered list can be shared.
 */
export function VideosPage() {
  const [params, setParams] = useSearchParams();
  const filters: Filters = {
    q: params.get('q')?.trim().slice(0, SEARCH_MAX_LENGTH) || undefined,
    category: parseCategory(params.get('category')),
    status: parseStatus(params.get('status')),
    sort: parseSort(params.get('sort')),
  };
  useDocumentTitle(filters.q ? `Results for “${filters.q}”` : 'All Available Selections');

  const update = (name: 'category' | 'status' | 'sort', value: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      const isDefault = name === 'sort' ? value === 'newest' : value === '';
      if (isDefault) next.delete(name);
      else next.set(name, value);
      return next;
    });

  const clearHref = (name: 'q' | 'category' | 'status') => {
    const next = new URLSearchParams(params);
    next.delete(name);
    const search = next.toString();
    return search ? `/videos?${search}` : '/videos';
  };

  return (
    <div className="mx-auto grid w-full max-w-7xl gap-6 px-4 py-8 sm:px-6 lg:px-8">
      <header className="grid gap-4 md:flex md:items-end md:justify-between">
        <div className="grid gap-1.5">
          <h1 className="text-3xl font-bold tracking-tight">All Available Selections</h1>
          {filters.q ? (
            <p className="flex flex-wrap items-center gap-x-3 text-muted-foreground">
              <span>
                Search results for <strong className="font-semibold text-foreground">“{filters.q}”</strong>
              </span>
              <Link href={clearHref('q')} className="text-sm font-semibold text-primary hover:underline">
                Clear search
              </Link>
            </p>
          ) : (
            <p className="text-muted-foreground">Every pick our cappers have for sale.</p>
          )}
        </div>
        {/* Two selects a row on a phone, the order on its own row; one row from sm up. */}
        <div className="grid grid-cols-2 gap-3 sm:flex sm:items-end">
          <div className="grid gap-1.5">
            <Label htmlFor="filter-category">Category</Label>
            <NativeSelect
              id="filter-category"
              value={filters.category ?? ''}
              onChange={(event) => update('category', event.target.value)}
              className="sm:w-52"
            >
              <option value="">All categories</option>
              {CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {category}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="filter-status">Status</Label>
            <NativeSelect
              id="filter-status"
              value={filters.status ?? ''}
              onChange={(event) => update('status', event.target.value)}
              className="sm:w-36"
            >
              <option value="">All picks</option>
              {STATUS_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="col-span-2 grid gap-1.5">
            <Label htmlFor="filter-sort">Sort by</Label>
            <NativeSelect
              id="filter-sort"
              value={filters.sort}
              onChange={(event) => update('sort', event.target.value)}
              className="sm:w-48"
            >
              {SORT_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>
      </header>
      {/* A new search or filter starts again at the first page. */}
      <Results key={JSON.stringify(filters)} filters={filters} clearHref={clearHref} />
    </div>
  );
}

type ResultsProps = { filters: Filters; clearHref: (name: 'q' | 'category' | 'status') => string };

function Results({ filters, clearHref }: ResultsProps) {
  // A search finds cappers too: their row and the picks appear together, so neither pushes the other.
  const cappers = useCapperSearch(filters.q ?? '');
  const cappersPending = filters.q !== undefined && cappers.isPending;
  const [pageCount, setPageCount] = useState(1);
  const pages = useQueries({
    queries: Array.from({ length: pageCount }, (_, page) =>
      getVideosQueryOptions({ ...filters, offset: page * PAGE_SIZE }),
    ),
  });
  const first = pages[0]!;
  const last = pages[pages.length - 1]!;

  if (first.isPending || cappersPending) return <VideoGridSkeleton />;
  const capperRow = filters.q && cappers.data && cappers.data.length > 0 && (
    <CapperMatches q={filters.q} cappers={cappers.data} />
  );
  if (first.isError)
    return <VideoGridError>Could not load videos: {errorMessage(first.error)}</VideoGridError>;

  // A video published between two pages shifts the later ones by one: show each video once.
  const seen = new Set<number>();
  const videos: Video[] = [];
  for (const page of pages) {
    for (const video of page.data ?? []) {
      if (seen.has(video.id)) continue;
      seen.add(video.id);
      videos.push(video);
    }
  }

  if (videos.length === 0)
    return (
      <div className="grid gap-8">
        {capperRow}
        <EmptyResults filters={filters} clearHref={clearHref} />
      </div>
    );

  // spec: keep fetching the next page while the last one came back full.
  const nextOffset = pageCount * PAGE_SIZE;
  const hasMore = last.data?.length === PAGE_SIZE && nextOffset <= OFFSET_MAX;
  return (
    <div className="grid gap-8">
      {capperRow}
      <p role="status" className="text-sm text-muted-foreground">
        {describeResults(videos.length, filters)}
      </p>
      <VideoGrid videos={videos} firstRowFirst headingLevel={2} />
      <div className="grid justify-items-center gap-3">
        {last.isError && (
          <VideoGridError>Could not load more videos: {errorMessage(last.error)}</VideoGridError>
        )}
        {last.isPending && (
          <Button variant="outline" size="lg" disabled>
            <LoaderCircle aria-hidden className="animate-spin" />
            Loading more...
          </Button>
        )}
        {last.isError && (
          <Button variant="outline" size="lg" onClick={() => void last.refetch()}>
            Try again
          </Button>
        )}
        {hasMore && !last.isPending && (
          <Button variant="outline" size="lg" onClick={() => setPageCount((count) => count + 1)}>
            Load more
          </Button>
        )}
      </div>
    </div>
  );
}

function EmptyResults({ filters, clearHref }: ResultsProps) {
  if (filters.q) {
    return (
      <VideoGridEmpty title={`No results for “${filters.q}”`}>
        <p>Try other words, or browse every selection.</p>
        <Link href={clearHref('q')} className={buttonClasses('outline', 'md')}>
          Clear search
        </Link>
      </VideoGridEmpty>
    );
  }
  if (filters.status) {
    const what = filters.status === 'open' ? 'on sale' : 'graded';
    return (
      <VideoGridEmpty title={`No ${filters.category ? `${filters.category} ` : ''}picks ${what} right now`}>
        <p>
          {filters.status === 'open'
            ? 'New picks go on sale every day.'
            : 'Graded picks appear here once their games are final.'}
        </p>
        <Link href={clearHref('status')} className={buttonClasses('outline', 'md')}>
          Show every status
        </Link>
      </VideoGridEmpty>
    );
  }
  if (filters.category) {
    return (
      <VideoGridEmpty title={`No ${filters.category} picks yet`}>
        <p>Check back soon, or look at the other categories.</p>
        <Link href={clearHref('category')} className={buttonClasses('outline', 'md')}>
          Show all categories
        </Link>
      </VideoGridEmpty>
    );
  }
  // spec 2 'All-selections listing'.
  return (
    <VideoGridEmpty title="No videos available">
      <p>Check back soon for new content from our cappers.</p>
    </VideoGridEmpty>
  );
}
