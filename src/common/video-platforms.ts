// Which site a link belongs to, by its host alone, and the site's name. Without zod, unlike video-links.ts,
// so the video card can name a link's site (a placeholder that says what the link is) at no cost
// to the home page's JavaScript budget (docs/decisions/011).

export const VIDEO_PLATFORMS = [
  'youtube',
  'vimeo',
  'instagram',
  'x',
  'tiktok',
  'rumble',
  'bitchute',
  'file',
  'unknown',
] as const;
export type VideoPlatform = (typeof VIDEO_PLATFORMS)[number];

export const PLATFORM_LABELS: Readonly<Record<VideoPlatform, string>> = {
  youtube: 'YouTube',
  vimeo: 'Vimeo',
  instagram: 'Instagram',
  x: 'X/Twitter',
  tiktok: 'TikTok',
  rumble: 'Rumble',
  bitchute: 'BitChute',
  file: 'Video file',
  unknown: 'External link',
};

export type KnownSite = Exclude<VideoPlatform, 'file' | 'unknown'>;

/**
 * Registrable domains of each site. A host belongs to a site when it equals one of these or is a subdomain
 * of it, so `youtube.com.evil.net` and `evilyoutube.com` do not.
 */
const SITE_DOMAINS: Readonly<Record<KnownSite, readonly string[]>> = {
  youtube: ['youtube.com', 'youtu.be', 'youtube-nocookie.com'],
  vimeo: ['vimeo.com'],
  instagram: ['instagram.com', 'instagr.am'],
  x: ['x.com', 'twitter.com'],
  tiktok: ['tiktok.com'],
  rumble: ['rumble.com'],
  bitchute: ['bitchute.com'],
};

export function withoutTrailingDot(host: string): string {
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

export function hostIs(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

export function siteOfHost(host: string): KnownSite | undefined {
  for (const site of Object.keys(SITE_DOMAINS) as KnownSite[]) {
    if (SITE_DOMAINS[site].some((domain) => hostIs(host, domain))) return site;
  }
  return undefined;
}

/**
 * The name a link's card shows where it has no picture: the platform's ('Vimeo'), else the link's host
 * without `www.` ('example.com'), else 'External link'.
 */
export function linkSiteName(url: string | null): string {
  let host: string;
  try {
    host = withoutTrailingDot(new URL(url ?? '').hostname);
  } catch {
    return PLATFORM_LABELS.unknown;
  }
  const site = siteOfHost(host);
  if (site) return PLATFORM_LABELS[site];
  return host.replace(/^www\./, '') || PLATFORM_LABELS.unknown;
}
