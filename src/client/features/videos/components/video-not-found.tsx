import { Link } from 'wouter';
import { SearchX } from 'lucide-react';
import { buttonClasses } from '#client/components/ui/button.tsx';

/** A missing video, a malformed id, or one not public yet: said plainly, with a way home. */
export function VideoNotFound() {
  return (
    <div className="mx-auto flex min-h-[50vh] w-full max-w-xl flex-col items-center justify-center gap-5 px-4 text-center">
      <span className="inline-flex size-16 items-center justify-center rounded-2xl bg-muted text-muted-foreground">
        <SearchX aria-hidden className="size-8" />
      </span>
      <h1 className="text-3xl font-bold tracking-tight">Video not found</h1>
      <p className="text-muted-foreground">This video does not exist or has been removed by its capper.</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Link href="/" className={buttonClasses('primary', 'md')}>
          Back to home
        </Link>
        <Link href="/videos" className={buttonClasses('outline', 'md')}>
          Browse all picks
        </Link>
      </div>
    </div>
  );
}
