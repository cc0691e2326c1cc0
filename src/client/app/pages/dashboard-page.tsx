// The dashboard composes four features (auth, videos, purchases, earnings) and owns no data of its own, so
// it lives in the app layer with the router rather than inside one of them (docs/decisions/018; a
// `dashboard` feature would be a folder holding this one page).
import type { ReactNode } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { AlertTriangle, BarChart3, Film, ShoppingBag, Upload } from 'lucide-react';
import {
  STAT_FIGURE_CLASSES,
  STAT_FIGURE_SKELETON_CLASSES,
  StatTile,
} from '#client/components/stat-tile.tsx';
import { buttonClasses } from '#client/components/ui/button.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#client/components/ui/tabs.tsx';
import { cn } from '#client/lib/cn.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { useUser } from '#client/features/auth/index.ts';
import { EarningsTile, PayoutRequests, useEarnings } from '#client/features/earnings/index.ts';
import { PromoCodesSection } from '#client/features/promos/index.ts';
import { formatPrice } from '#common/money.js';
import type { VideoSales } from '#common/schemas/purchases.js';
import type { Video } from '#common/schemas/videos.js';
import {
  OutcomeChip,
  PurchaseCard,
  PurchaseResultsSummary,
  RefundedPayments,
  usePurchases,
  useVideoSales,
} from '#client/features/purchases/index.ts';
import { useUserVideos, VideoCard } from '#client/features/videos/index.ts';

type DashboardTab = 'uploads' | 'purchased';

/** spec 2: ?tab=uploads or ?tab=purchased; without it, uploads for a capper and purchases for a bettor. */
function tabOf(search: string): DashboardTab | null {
  const tab = new URLSearchParams(search).get('tab');
  return tab === 'uploads' || tab === 'purchased' ? tab : null;
}

export function DashboardPage() {
  useDocumentTitle('Dashboard');
  const { data: user } = useUser();
  const search = useSearch();
  const [, navigate] = useLocation();
  const chosen = tabOf(search);
  const videos = useUserVideos();
  const purchases = usePurchases();
  const earnings = useEarnings();
  // A capper has uploads, sales or earnings; anyone else is a bettor, who sees their purchases first, not
  // empty capper tiles.
  const capper = (videos.data?.length ?? 0) > 0 || (earnings.data?.total ?? 0) > 0;
  const tab: DashboardTab = chosen ?? (capper ? 'uploads' : 'purchased');

  if (chosen === null && (videos.isPending || earnings.isPending)) {
    return (
      <DashboardFrame user={user?.username}>
        <ListState query={videos} what="your dashboard">
          {() => null}
        </ListState>
      </DashboardFrame>
    );
  }
  if (!capper && chosen !== 'uploads') {
    return (
      <DashboardFrame user={user?.username}>
        <section aria-labelledby="your-purchases" className="grid gap-6">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="your-purchases" className="text-2xl font-bold tracking-tight">
              Your purchases
            </h2>
            {purchases.data && (
              <p className="text-muted-foreground">
                <span data-testid="purchases-count">{purchases.data.length}</span>{' '}
                {purchases.data.length === 1 ? 'purchase' : 'purchases'}
              </p>
            )}
          </div>
          <PurchasesGrid query={purchases} />
          <RefundedPayments />
        </section>
        {/* Below the purchases, drawn once they have loaded: shown earlier, the cards would push it down. */}
        {purchases.isSuccess && (
          <section
            aria-labelledby="sell-picks"
            className="grid justify-items-start gap-3 rounded-card border border-dashed bg-card p-5"
          >
            <h2 id="sell-picks" className="text-lg font-semibold">
              Sell your own picks
            </h2>
            <p className="text-muted-foreground">
              Post a preview video with sealed legs; buyers unlock them, and every pick is graded from the
              final scores.
            </p>
            <Link href="/upload" className={buttonClasses('outline', 'md')}>
              <Upload aria-hidden />
              Upload a pick
            </Link>
          </section>
        )}
      </DashboardFrame>
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-7xl gap-10 px-4 py-8 sm:px-6 lg:px-8">
      <header className="grid gap-1">
        <h1 className="text-3xl font-bold tracking-tight">Dashboard</h1>
        {/* A long username breaks rather than widening the page on a phone. */}
        {user && (
          <p className="text-muted-foreground [overflow-wrap:anywhere]">Signed in as {user.username}</p>
        )}
      </header>

      {/* Two to a row from the narrowest phone, four on a wide screen; auto-rows-fr makes every row as tall
          as the tallest tile, so the tiles are one height. */}
      <div className="grid auto-rows-fr grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <StatTile title="Total Uploads" icon={<Film aria-hidden />}>
          <Count value={videos.data?.length} pending={videos.isPending} testId="uploads-count" />
        </StatTile>
        <StatTile title="Purchases" icon={<ShoppingBag aria-hidden />}>
          <Count value={purchases.data?.length} pending={purchases.isPending} testId="purchases-count" />
        </StatTile>
        <EarningsTile />
        <AnalyticsTile />
      </div>

      <PayoutRequests />
      {user && <PromoCodesSection username={user.username} />}

      <section aria-labelledby="your-content" className="grid gap-6">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <h2 id="your-content" className="text-2xl font-bold tracking-tight">
            Your Content
          </h2>
          <Link href="/upload" className={buttonClasses('primary', 'md')}>
            <Upload aria-hidden />
            Upload New Video
          </Link>
        </div>
        <Tabs value={tab} onValueChange={(next) => navigate(`/dashboard?tab=${next}`, { replace: true })}>
          {/* Tighter tabs on a phone: at their desktop padding the two hold the page wider than 320 px. */}
          <TabsList className="w-full sm:w-auto [&>*]:px-2 sm:[&>*]:px-4">
            <TabsTrigger value="uploads">Your Uploads</TabsTrigger>
            <TabsTrigger value="purchased">Your Purchases</TabsTrigger>
          </TabsList>
          <TabsContent value="uploads">
            <UploadsGrid query={videos} />
          </TabsContent>
          <TabsContent value="purchased" className="grid gap-8">
            <PurchasesGrid query={purchases} />
            <RefundedPayments />
          </TabsContent>
        </Tabs>
      </section>
    </div>
  );
}

function Count({ value, pending, testId }: { value: number | undefined; pending: boolean; testId: string }) {
  if (pending) return <Skeleton className={cn(STAT_FIGURE_SKELETON_CLASSES, 'w-16')} />;
  return (
    <p className={STAT_FIGURE_CLASSES} data-testid={testId}>
      {value ?? '—'}
    </p>
  );
}

function AnalyticsTile() {
  const { data: earnings } = useEarnings();
  return (
    <StatTile title="Analytics" icon={<BarChart3 aria-hidden />}>
      {/* The count has a line of its own, held by a skeleton while it loads: the tile keeps its height. */}
      <div className="grid gap-1 text-sm text-muted-foreground">
        {earnings ? (
          <p className="font-semibold text-foreground">
            {earnings.salesCount} {earnings.salesCount === 1 ? 'sale' : 'sales'} so far.
          </p>
        ) : (
          <Skeleton className="h-5 w-24" />
        )}
        <p>See views, sales and revenue over time.</p>
      </div>
      <Link
        href="/dashboard/analytics"
        className={cn(buttonClasses('outline', 'sm'), 'mt-auto')}
        aria-label="View analytics"
      >
        View
      </Link>
    </StatTile>
  );
}

type ListQuery<T> = { data: T[] | undefined; isPending: boolean; isError: boolean; error: unknown };

function ListState<T>({
  query,
  what,
  children,
}: {
  query: ListQuery<T>;
  what: string;
  children: (items: T[]) => ReactNode;
}) {
  if (query.isPending) {
    return (
      <div className="grid gap-6 md:grid-cols-2" aria-busy="true">
        <span role="status" className="sr-only">
          Loading {what}
        </span>
        <Skeleton className="h-72 rounded-card" />
        <Skeleton className="h-72 rounded-card" />
      </div>
    );
  }
  if (query.isError || !query.data) {
    return (
      <p
        role="alert"
        className="flex items-center gap-2 rounded-card border border-destructive/30 bg-card p-6 text-destructive"
      >
        <AlertTriangle aria-hidden className="size-5 shrink-0" />
        Could not load {what}: {errorMessage(query.error)}
      </p>
    );
  }
  return children(query.data);
}

function EmptyState({ message, action }: { message: string; action: ReactNode }) {
  return (
    <div className="grid min-w-0 justify-items-center gap-4 rounded-card border border-dashed bg-card p-6 text-center sm:p-10">
      <p className="text-lg font-medium">{message}</p>
      {action}
    </div>
  );
}

function DashboardFrame({ user, children }: { user: string | undefined; children: ReactNode }) {
  return (
    <div className="mx-auto grid w-full max-w-7xl gap-10 px-4 py-8 sm:px-6 lg:px-8">
      <header className="grid gap-1">
        <h1 className="text-3xl font-bold tracking-tight">Dashboard</h1>
        {user && <p className="text-muted-foreground [overflow-wrap:anywhere]">Signed in as {user}</p>}
      </header>
      {children}
    </div>
  );
}

/** Under each upload: how many sold and for how much, and where the pick stands. */
function UploadSales({ video, sales }: { video: Video; sales: VideoSales | undefined }) {
  const count = sales?.sales ?? 0;
  return (
    <p
      className="flex flex-wrap items-center gap-x-3 gap-y-1 px-1 text-sm text-muted-foreground"
      data-testid="upload-sales"
    >
      <span className="font-semibold text-foreground">
        {count === 0
          ? 'No sales yet'
          : `${count} ${count === 1 ? 'sale' : 'sales'} · ${formatPrice(sales!.amount)}`}
      </span>
      {video.pick ? (
        <OutcomeChip
          outcome={{
            status: video.pick.status,
            result: video.pick.result,
            unitsWon: video.pick.unitsWon,
            removed: null,
          }}
        />
      ) : (
        <span>Unverified: not graded</span>
      )}
    </p>
  );
}

function UploadsGrid({ query }: { query: ReturnType<typeof useUserVideos> }) {
  const { data: sales } = useVideoSales();
  const byVideo = new Map((sales ?? []).map((row) => [row.videoId, row]));
  return (
    <ListState query={query} what="your videos">
      {(videos) =>
        videos.length === 0 ? (
          <EmptyState
            message="No videos uploaded yet"
            action={
              <Link href="/upload" className={buttonClasses('primary', 'md')}>
                Upload Your First Video
              </Link>
            }
          />
        ) : (
          <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {videos.map((video) => (
              <li key={video.id} className="flex flex-col gap-2 [&>:first-child]:flex-1">
                <VideoCard video={video} />
                <UploadSales video={video} sales={byVideo.get(video.id)} />
              </li>
            ))}
          </ul>
        )
      }
    </ListState>
  );
}

function PurchasesGrid({ query }: { query: ReturnType<typeof usePurchases> }) {
  return (
    <ListState query={query} what="your purchases">
      {(purchases) =>
        purchases.length === 0 ? (
          <EmptyState
            message="No purchased products"
            action={
              <Link href="/" className={buttonClasses('primary', 'md')}>
                Browse Marketplace
              </Link>
            }
          />
        ) : (
          <div className="grid gap-6">
            <PurchaseResultsSummary purchases={purchases} />
            <ul className="grid grid-cols-1 gap-6 md:grid-cols-2">
              {purchases.map((purchase) => (
                <li key={purchase.id} className="flex">
                  <PurchaseCard purchase={purchase} />
                </li>
              ))}
            </ul>
          </div>
        )
      }
    </ListState>
  );
}
