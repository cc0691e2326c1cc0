import { Link } from 'wouter';
import { Trophy } from 'lucide-react';
import { formatPrice } from '#common/money.js';
import type { Purchase } from '#common/schemas/payments.js';
import type { Video } from '#common/schemas/videos.js';
import { detectPlatform, PLATFORM_LABELS } from '#common/video-links.js';
import { Button, buttonClasses } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#client/components/ui/dialog.tsx';
import { formatDuration, formatShortDate } from '#client/lib/format.ts';

export const NO_SELECTIONS = 'No winning selections provided for this product.';

/** spec 2: the selections, else the description, else a sentence saying there are none. */
export function selectionsText(purchase: Purchase): string {
  const video = purchase.videos;
  const selections = video ? video.emailInformation : purchase.selectionsSnapshot;
  if (selections?.trim()) return selections;
  if (video?.description.trim()) return video.description;
  return NO_SELECTIONS;
}

export function durationText(video: Video | null): string {
  return video?.duration ? formatDuration(video.duration) : 'Not specified';
}

/** spec 2: "external video hosted on a third-party platform, or the MOV/WebM file names". */
export function formatDetails(video: Video): string {
  if (video.isExternalVideo) {
    const platform = video.externalVideoUrl ? detectPlatform(video.externalVideoUrl).platform : 'unknown';
    const where = platform === 'unknown' || platform === 'file' ? '' : ` (${PLATFORM_LABELS[platform]})`;
    return `External video hosted on a third-party platform${where}`;
  }
  const names = [video.videoUrl, video.webmUrl, video.ogvUrl]
    .filter((url): url is string => Boolean(url))
    .map((url) => decodeURIComponent(url.split('?')[0]!.split('/').pop() ?? ''))
    .filter(Boolean);
  if (names.length > 0) return `Video files: ${names.join(', ')}`;
  return video.transcodingStatus === 'ready'
    ? 'Uploaded video file'
    : 'Uploaded video file (still processing)';
}

export function SelectionsDialog({ purchase }: { purchase: Purchase }) {
  const video = purchase.videos;
  const title = video?.title ?? purchase.videoTitle;
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="accent" className="w-full">
          <Trophy aria-hidden />
          View Cappers Selections
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Cappers Selections</DialogTitle>
          <DialogDescription>{title}</DialogDescription>
        </DialogHeader>
        <section aria-label="Winning selections" className="rounded-xl border bg-muted/50 p-4">
          <h3 className="mb-2 text-sm font-semibold">Winning Selections</h3>
          <p className="text-sm whitespace-pre-wrap break-words" data-testid="selections-text">
            {selectionsText(purchase)}
          </p>
        </section>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-muted-foreground">Price</dt>
          <dd className="font-medium">{formatPrice(purchase.amount)}</dd>
          <dt className="text-muted-foreground">Purchase date</dt>
          <dd>{formatShortDate(purchase.purchaseDate)}</dd>
          {video && (
            <>
              <dt className="text-muted-foreground">Category</dt>
              <dd>{video.category}</dd>
              <dt className="text-muted-foreground">Duration</dt>
              <dd>{durationText(video)}</dd>
              <dt className="text-muted-foreground">Content</dt>
              <dd>{video.isPremium ? 'Premium' : 'Standard'}</dd>
              <dt className="text-muted-foreground">Format</dt>
              <dd className="break-words">{formatDetails(video)}</dd>
            </>
          )}
        </dl>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
          {video && (
            <Link href={`/video/${video.id}`} className={buttonClasses('primary', 'md')}>
              View Video Details
            </Link>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
