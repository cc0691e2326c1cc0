import type { ReactNode } from 'react';
import { Link2 } from 'lucide-react';
import { PRODUCT_NAME } from '#common/constants.js';
import type { Video } from '#common/schemas/videos.js';
import { toast } from '#client/components/ui/use-toast.ts';
import { useShareVideo, type SharePlatform } from '../api/share-video';

const LINK_CLASSES =
  'inline-flex h-10 cursor-pointer items-center justify-center gap-2 rounded-lg border border-input bg-card px-3 text-sm font-semibold shadow-xs transition-colors hover:bg-muted [&_svg]:size-4';

// lucide has no brand marks; these follow its 24px, 2px-stroke style.
function BrandIcon({ children }: { children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
    >
      {children}
    </svg>
  );
}

const ICONS: Record<Exclude<SharePlatform, 'copy'>, ReactNode> = {
  x: (
    <BrandIcon>
      <path d="M4 4l16 16M20 4L4 20" />
    </BrandIcon>
  ),
  facebook: (
    <BrandIcon>
      <path d="M15 3h-2.5A3.5 3.5 0 0 0 9 6.5V10H6.5v3.5H9V21h3.5v-7.5H15l.5-3.5h-3V7a1 1 0 0 1 1-1H15z" />
    </BrandIcon>
  ),
  whatsapp: (
    <BrandIcon>
      <path d="M3 21l1.65-4.5A8.5 8.5 0 1 1 8 19.6L3 21z" />
      <path d="M9 8.5c0 3 2.5 6 5.5 6.5l1-1.5-2-1-1 .8c-1-.4-2-1.4-2.4-2.4l.8-1-1-2z" />
    </BrandIcon>
  ),
};

type ShareLink = { platform: Exclude<SharePlatform, 'copy'>; label: string; href: string };

function shareLinks(url: string, text: string): ShareLink[] {
  const u = encodeURIComponent(url);
  return [
    {
      platform: 'x',
      label: 'X',
      href: `https://x.com/intent/post?url=${u}&text=${encodeURIComponent(text)}`,
    },
    { platform: 'facebook', label: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    {
      platform: 'whatsapp',
      label: 'WhatsApp',
      href: `https://wa.me/?text=${encodeURIComponent(`${text} ${url}`)}`,
    },
  ];
}

/**
 * docs/product-decisions.md 'Screens the spec does not show', /video/{id}: copy link, X, Facebook, WhatsApp; each
 * records a share and bumps the count.
 */
export function ShareButtons({ video }: { video: Video }) {
  const { mutate: recordShare } = useShareVideo();
  const url = `${window.location.origin}/video/${video.id}`;
  const text = `${video.title} on ${PRODUCT_NAME}`;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast({
        title: 'Link copied',
        description: 'The link to this video is on your clipboard.',
        variant: 'success',
      });
      recordShare({ id: video.id, platform: 'copy' });
    } catch {
      toast({ title: 'Could not copy the link', description: url, variant: 'destructive' });
    }
  };

  return (
    <div className="grid gap-3">
      <div className="grid grid-cols-2 gap-2">
        <button type="button" onClick={() => void copy()} className={LINK_CLASSES}>
          <Link2 aria-hidden />
          Copy link
        </button>
        {shareLinks(url, text).map(({ platform, label, href }) => {
          return (
            <a
              key={platform}
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              className={LINK_CLASSES}
              onClick={() => recordShare({ id: video.id, platform })}
            >
              {ICONS[platform]}
              {label}
              <span className="sr-only">(share in a new tab)</span>
            </a>
          );
        })}
      </div>
      <p className="text-xs text-muted-foreground" aria-live="polite">
        Shared {video.shareCount} {video.shareCount === 1 ? 'time' : 'times'}
      </p>
    </div>
  );
}
