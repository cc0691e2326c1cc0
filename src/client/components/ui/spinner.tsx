import { LoaderCircle } from 'lucide-react';
import { cn } from '#client/lib/cn.ts';

type SpinnerProps = { className?: string; label?: string };

export function Spinner({ className, label = 'Loading' }: SpinnerProps) {
  return (
    <span role="status" className="inline-flex">
      <LoaderCircle aria-hidden className={cn('size-6 animate-spin text-primary', className)} />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** The whole-page wait shown while a route's code or the session loads. */
export function PageSpinner({ label }: { label?: string }) {
  return (
    <div className="flex min-h-[50vh] items-center justify-center" data-testid="page-spinner">
      <Spinner className="size-10" label={label} />
    </div>
  );
}
