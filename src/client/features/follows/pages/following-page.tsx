import { Link } from 'wouter';
import { UserMinus } from 'lucide-react';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { errorMessage } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { VideoGrid, VideoGridError, VideoGridSkeleton } from '#client/features/videos/index.ts';
import { useSetFollowing } from '../api/follow-capper';
import { useFollowing, type FollowedCapper } from '../api/get-following';

const nameOf = (capper: FollowedCapper) => capper.displayName ?? capper.username;

/** The cappers the signed-in user follows, then their picks still on sale, as the catalog shows them. */
export function FollowingPage() {
  useDocumentTitle('Following');
  const following = useFollowing();

  return (
    <div className="mx-auto grid w-full max-w-7xl gap-8 px-4 py-8 sm:px-6 lg:px-8">
      <header className="grid gap-1.5">
        <h1 className="text-3xl font-bold tracking-tight">Following</h1>
        <p className="text-muted-foreground">The cappers you follow and their open picks.</p>
      </header>
      {following.isPending ? (
        <FollowingSkeleton />
      ) : following.isError ? (
        <div className="grid justify-items-start gap-4">
          <VideoGridError>Could not load who you follow: {errorMessage(following.error)}</VideoGridError>
          <Button variant="outline" onClick={() => void following.refetch()}>
            Try again
          </Button>
        </div>
      ) : following.data.cappers.length === 0 ? (
        <div
          data-testid="following-empty"
          className="grid justify-items-center gap-4 rounded-card border border-dashed bg-card px-6 py-12 text-center"
        >
          <p className="text-lg font-semibold">
            You don&apos;t follow anyone yet — find cappers on the{' '}
            <Link href="/leaderboard" className="text-primary underline-offset-4 hover:underline">
              leaderboard
            </Link>
          </p>
        </div>
      ) : (
        <>
          <section aria-labelledby="followed-cappers" className="grid gap-4">
            <h2 id="followed-cappers" className="text-lg font-semibold tracking-tight">
              Cappers you follow ({following.data.cappers.length})
            </h2>
            <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {following.data.cappers.map((capper) => (
                <FollowedCapperItem key={capper.username} capper={capper} />
              ))}
            </ul>
          </section>
          <section aria-labelledby="followed-picks" className="grid gap-4">
            <h2 id="followed-picks" className="text-lg font-semibold tracking-tight">
              Their open picks ({following.data.videos.length})
            </h2>
            {following.data.videos.length === 0 ? (
              <p className="rounded-card border border-dashed bg-card p-8 text-center text-muted-foreground">
                No open picks from the cappers you follow right now. You get an alert when they post one.
              </p>
            ) : (
              <VideoGrid videos={following.data.videos} headingLevel={3} />
            )}
          </section>
        </>
      )}
    </div>
  );
}

function FollowedCapperItem({ capper }: { capper: FollowedCapper }) {
  const unfollow = useSetFollowing(capper.username);
  const name = nameOf(capper);
  const since = new Date(capper.followedAt);
  return (
    <li className="flex items-center gap-3 rounded-card border bg-card p-4 shadow-xs">
      <Avatar name={name} src={capper.avatarUrl} className="size-12 text-lg" />
      <div className="grid min-w-0 flex-1 gap-0.5">
        <Link
          href={`/cappers/${encodeURIComponent(capper.username)}`}
          className="truncate font-semibold underline-offset-4 hover:underline"
        >
          {name}
        </Link>
        <span className="truncate text-sm text-muted-foreground">
          Since{' '}
          <time dateTime={capper.followedAt}>
            {since.toLocaleDateString('en-US', { dateStyle: 'medium' })}
          </time>
        </span>
      </div>
      <Button
        variant="outline"
        size="sm"
        aria-label={`Unfollow ${name}`}
        onClick={() => {
          if (!unfollow.isPending) unfollow.mutate(false);
        }}
      >
        <UserMinus aria-hidden />
        Unfollow
      </Button>
    </li>
  );
}

function FollowingSkeleton() {
  return (
    <div className="grid gap-8" aria-busy="true">
      <span role="status" className="sr-only">
        Loading who you follow
      </span>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {Array.from({ length: 3 }, (_, index) => (
          <Skeleton key={index} className="h-20 rounded-card" />
        ))}
      </div>
      <VideoGridSkeleton label="Loading their picks" />
    </div>
  );
}
