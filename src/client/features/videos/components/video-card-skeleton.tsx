import { Card } from '#client/components/ui/card.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';

export function VideoCardSkeleton() {
  return (
    <Card className="overflow-hidden" data-testid="video-card-skeleton">
      <Skeleton className="aspect-video rounded-none" />
      <div className="grid gap-3 p-4">
        <div className="flex justify-between gap-3">
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="h-5 w-12" />
        </div>
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-4/5" />
      </div>
    </Card>
  );
}
