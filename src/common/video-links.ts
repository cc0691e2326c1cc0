// External video links: which platform a link points to, whether the upload form accepts it, and what the
// video card embeds. One implementation for the form, the server and the card (spec 2 'Video card',
// spec 5 'Upload form' and 'Video link platform detection', docs/product-decisions.md 'Media').
import {
  hostIs,
  PLATFORM_LABELS,
  siteOfHost,
  withoutTrailingDot,
  type KnownSite,
  type VideoPlatform,
} from './video-platforms.js';

export { PLATFORM_LABELS, VIDEO_PLATFORMS, type VideoPlatform } from './video-platforms.js';

/** Direct files the card plays (or, for png, shows) itself (spec 5 'Video link platform detection'). */
export const DIRECT_FILE_EXTENSIONS = ['mp4', 'webm', 'ogg', 'mov', 'png'] as const;
export type DirectFileExtension = (typeof DIRECT_FILE_EXTENSIONS)[number];

/**
 * What a link points to. A platform variant is returned only for a form of that platform we recognise;
 * any other link (including, say, an Instagram profile page) is `unknown`.
 */
export type VideoLink =
  | { platform: 'youtube'; id: string }
  /** `hash` is the privacy hash of an unlisted video: without it the player refuses to play. */
  | { platform: 'vimeo'; id: string; hash?: string }
  | { platform: 'instagram'; kind: 'p' | 'reel'; id: string }
  | { platform: 'x'; id: string; user?: string }
  /** `id` is set when the segment after /video/ is the numeric id of the canonical form. */
  | { platform: 'tiktok'; id?: string }
  | { platform: 'rumble' }
  | { platform: 'bitchute'; id: string }
  | { platform: 'file'; extension: DirectFileExtension; kind: 'video' | 'image' }
  | { platform: 'unknown' };

/** Longest link accepted: enough for any real share link, and no novel in a database column. */
export const EXTERNAL_VIDEO_URL_MAX_LENGTH = 2048;

export const INVALID_URL_MESSAGE = 'Please enter a valid URL';
export const URL_TOO_LONG_MESSAGE = `URL must be at most ${EXTERNAL_VIDEO_URL_MAX_LENGTH} characters`;
export const URL_CREDENTIALS_MESSAGE = 'URLs containing a username or password are not accepted';

/** The per-site formats of spec 5 'Upload form', for the form's hint and the failure message. */
export const ACCEPTED_VIDEO_URL_FORMATS: ReadonlyArray<{ site: string; formats: readonly string[] }> = [
  {
    site: 'YouTube',
    formats: [
      'youtube.com/watch?v=ID',
      'youtube.com/embed/ID',
      'youtube.com/shorts/ID',
      'youtube.com/live/ID',
      'youtu.be/ID',
    ],
  },
  { site: 'Vimeo', formats: ['vimeo.com/123…', 'player.vimeo.com/video/123…'] },
  { site: 'X/Twitter', formats: ['x.com/user/status/123…'] },
  { site: 'TikTok', formats: ['tiktok.com/@user/video/123…'] },
  { site: 'BitChute', formats: ['bitchute.com/video/ID'] },
  { site: 'Instagram, Rumble and other sites', formats: ['any link'] },
];

export const ACCEPTED_VIDEO_URL_FORMATS_TEXT = ACCEPTED_VIDEO_URL_FORMATS.map(
  ({ site, formats }) => `${site}: ${formats.join(', ')}`,
).join('; ');

export function invalidSiteUrlMessage(platform: VideoPlatform): string {
  return `Invalid ${PLATFORM_LABELS[platform]} URL. Accepted formats: ${ACCEPTED_VIDEO_URL_FORMATS_TEXT}`;
}

// ---------------------------------------------------------------------------------------------------------
// Parsing

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_PATH = /^\/(?:embed|shorts|live)\/([A-Za-z0-9_-]{11})\/?$/;
const YOUTU_BE_PATH = /^\/([A-Za-z0-9_-]{11})\/?$/;

const VIMEO_PATHS = [
  /^\/(\d{1,20})(?:\/([0-9a-f]{1,32}))?\/?$/, // vimeo.com/123 and unlisted vimeo.com/123/abcdef
  /^\/video\/(\d{1,20})\/?$/, // player.vimeo.com/video/123
  /^\/channels\/[^/]+\/(\d{1,20})\/?$/,
  /^\/groups\/[^/]+\/videos\/(\d{1,20})\/?$/,
  /^\/(?:showcase|album)\/[^/]+\/video\/(\d{1,20})\/?$/,
];
const VIMEO_HASH = /^[0-9a-f]{1,32}$/;

// Optional user prefix: Instagram now also shares instagram.com/{user}/reel/{id}/.
const INSTAGRAM_PATH = /^\/(?:[A-Za-z0-9._]{1,30}\/)?(p|reels?|tv)\/([A-Za-z0-9_-]{1,64})\/?$/;

// x.com/{user}/status/{id}, with the share forms .../photo/1 and .../video/1, and /i/web/status/{id}.
const X_STATUS_PATH =
  /^\/(?:i\/web|([A-Za-z0-9_]{1,15}))\/status(?:es)?\/(\d{1,20})(?:\/(?:photo|video)\/\d)?\/?$/;

const TIKTOK_VIDEO_SEGMENT = /\/video\/([^/]+)/;
const BITCHUTE_PATH = /^\/video\/([A-Za-z0-9_-]{1,64})\/?$/;

const HTTP_PREFIX = /^https?:\/\//i;
// Whitespace and control characters: the URL parser silently drops some of them ("you\ntube.com"),
// so what we would store would not be what we checked.
const FORBIDDEN_CHARACTERS = /[\s\p{Cc}]/u;

type ParsedUrl = { ok: true; url: URL; text: string } | { ok: false; message: string };

function parseHttpUrl(input: string): ParsedUrl {
  const text = input.trim();
  if (text.length > EXTERNAL_VIDEO_URL_MAX_LENGTH) return { ok: false, message: URL_TOO_LONG_MESSAGE };
  // spec 5: the link must start with http or https; "https:youtube.com" and "https:\\..." do not.
  if (!HTTP_PREFIX.test(text) || FORBIDDEN_CHARACTERS.test(text)) {
    return { ok: false, message: INVALID_URL_MESSAGE };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: INVALID_URL_MESSAGE };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, message: INVALID_URL_MESSAGE };
  if (!url.hostname) return { ok: false, message: INVALID_URL_MESSAGE };
  // "https://youtube.com@evil.net/" is evil.net: credentials only ever serve to disguise the host.
  if (url.username || url.password) return { ok: false, message: URL_CREDENTIALS_MESSAGE };
  return { ok: true, url, text };
}

/** The URL parser lower-cases hosts and turns look-alike Unicode into punycode; only a trailing dot remains. */
function normalisedHost(url: URL): string {
  return withoutTrailingDot(url.hostname);
}

function parseYouTube(url: URL, host: string): VideoLink | undefined {
  if (hostIs(host, 'youtu.be')) {
    const id = YOUTU_BE_PATH.exec(url.pathname)?.[1];
    return id ? { platform: 'youtube', id } : undefined;
  }
  if (hostIs(host, 'youtube-nocookie.com')) {
    const match = YOUTUBE_PATH.exec(url.pathname);
    return match?.[1] && url.pathname.startsWith('/embed/')
      ? { platform: 'youtube', id: match[1] }
      : undefined;
  }
  if (url.pathname === '/watch' || url.pathname === '/watch/') {
    const id = url.searchParams.get('v');
    return id && YOUTUBE_ID.test(id) ? { platform: 'youtube', id } : undefined;
  }
  const id = YOUTUBE_PATH.exec(url.pathname)?.[1];
  return id ? { platform: 'youtube', id } : undefined;
}

function parseVimeo(url: URL): VideoLink | undefined {
  for (const pattern of VIMEO_PATHS) {
    const match = pattern.exec(url.pathname);
    if (!match?.[1]) continue;
    const hash = match[2] ?? url.searchParams.get('h') ?? undefined;
    return hash && VIMEO_HASH.test(hash)
      ? { platform: 'vimeo', id: match[1], hash }
      : { platform: 'vimeo', id: match[1] };
  }
  return undefined;
}

function parseInstagram(url: URL): VideoLink | undefined {
  const match = INSTAGRAM_PATH.exec(url.pathname);
  if (!match?.[1] || !match[2]) return undefined;
  // A shortcode is the same whatever the path says; /p/{id}/embed serves posts and IGTV alike.
  const kind = match[1] === 'p' || match[1] === 'tv' ? 'p' : 'reel';
  return { platform: 'instagram', kind, id: match[2] };
}

function parseX(url: URL): VideoLink | undefined {
  const match = X_STATUS_PATH.exec(url.pathname);
  if (!match?.[2]) return undefined;
  const user = match[1];
  return user && user !== 'i' ? { platform: 'x', id: match[2], user } : { platform: 'x', id: match[2] };
}

function parseTikTok(url: URL): VideoLink | undefined {
  // spec 5: @user/video/digits, and other forms containing /video/ (followed by something) are accepted too.
  const segment = TIKTOK_VIDEO_SEGMENT.exec(url.pathname)?.[1];
  if (!segment) return undefined;
  return /^\d{1,25}$/.test(segment) ? { platform: 'tiktok', id: segment } : { platform: 'tiktok' };
}

function parseBitChute(url: URL): VideoLink | undefined {
  const id = BITCHUTE_PATH.exec(url.pathname)?.[1];
  return id ? { platform: 'bitchute', id } : undefined;
}

function parseDirectFile(url: URL): VideoLink | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(url.pathname)?.[1]?.toLowerCase();
  if (!extension || !(DIRECT_FILE_EXTENSIONS as readonly string[]).includes(extension)) return undefined;
  const ext = extension as DirectFileExtension;
  return { platform: 'file', extension: ext, kind: ext === 'png' ? 'image' : 'video' };
}

function linkOf(url: URL, site: KnownSite | undefined, host: string): VideoLink | undefined {
  switch (site) {
    case 'youtube':
      return parseYouTube(url, host);
    case 'vimeo':
      return parseVimeo(url);
    case 'instagram':
      return parseInstagram(url);
    case 'x':
      return parseX(url);
    case 'tiktok':
      return parseTikTok(url);
    case 'rumble':
      return { platform: 'rumble' };
    case 'bitchute':
      return parseBitChute(url);
    case undefined:
      return parseDirectFile(url);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Public API

/**
 * Which platform an external link points to (spec 5 'Video link platform detection'). Anything that is not
 * an absolute http(s) link, carries credentials or is too long is `unknown`, as is any form not recognised.
 * The spec's unnamed "video site" cannot be identified (docs/product-decisions.md 'Media'), so it is `unknown` too.
 */
export function detectPlatform(input: string): VideoLink {
  const parsed = parseHttpUrl(input);
  if (!parsed.ok) return { platform: 'unknown' };
  const host = normalisedHost(parsed.url);
  return linkOf(parsed.url, siteOfHost(host), host) ?? { platform: 'unknown' };
}

export type ExternalVideoUrlValidation =
  { ok: true; url: string; platform: VideoPlatform; link: VideoLink } | { ok: false; message: string };

/**
 * spec 5 'Upload form': the link must start with http or https, and a link to a known site must be in one
 * of that site's formats. Instagram and Rumble accept any link; other hosts are accepted (they show nothing
 * on the card). `url` is the trimmed link to store.
 *
 * Vimeo is not in the spec's list, but the card embeds it by numeric id (spec 2), so a Vimeo link without
 * one (a profile, a channel page) is refused like a malformed YouTube link rather than stored unplayable.
 */
export function validateExternalVideoUrl(input: string): ExternalVideoUrlValidation {
  const parsed = parseHttpUrl(input);
  if (!parsed.ok) return parsed;
  const host = normalisedHost(parsed.url);
  const site = siteOfHost(host);
  const link = linkOf(parsed.url, site, host) ?? { platform: 'unknown' };
  const acceptsAnyLink = site === undefined || site === 'instagram' || site === 'rumble';
  if (!acceptsAnyLink && link.platform !== site) return { ok: false, message: invalidSiteUrlMessage(site) };
  return { ok: true, url: parsed.text, platform: link.platform, link };
}

/** The only origins `embedUrl` ever produces; the CSP's frame-src must allow each of them. */
export const EMBED_ORIGINS = [
  'https://www.youtube-nocookie.com',
  'https://player.vimeo.com',
  'https://www.instagram.com',
  'https://platform.twitter.com',
] as const;

export interface EmbedOptions {
  /** Start playing at once (the card's inline playback). */
  autoplay?: boolean;
  /** Start muted (spec 2: when autoplay is blocked, playback is retried muted). */
  muted?: boolean;
}

/**
 * The iframe src for a link the card embeds (spec 2 'Video card'), or undefined when it embeds nothing
 * (direct files play in a <video>, other platforms show nothing). Built from the parsed id alone, never
 * from the user's text, so the frame can only be one of EMBED_ORIGINS.
 */
export function embedUrl(link: VideoLink, options: EmbedOptions = {}): string | undefined {
  const params = new URLSearchParams();
  switch (link.platform) {
    case 'youtube':
      if (options.autoplay) {
        params.set('autoplay', '1');
        params.set('playsinline', '1');
        params.set('rel', '0');
      }
      if (options.muted) params.set('mute', '1');
      return withQuery(`https://www.youtube-nocookie.com/embed/${link.id}`, params);
    case 'vimeo':
      if (link.hash) params.set('h', link.hash);
      if (options.autoplay) {
        params.set('autoplay', '1');
        params.set('playsinline', '1');
      }
      if (options.muted) params.set('muted', '1');
      return withQuery(`https://player.vimeo.com/video/${link.id}`, params);
    case 'instagram':
      return `https://www.instagram.com/${link.kind}/${link.id}/embed`;
    case 'x':
      params.set('id', link.id);
      params.set('dnt', 'true');
      return withQuery('https://platform.twitter.com/embed/Tweet.html', params);
    default:
      return undefined;
  }
}

/**
 * A canonical page for the link, for "open externally" (spec 8: the Instagram failure message carries one),
 * built from the parsed id so it is always a plain https link to the platform itself.
 */
export function externalPageUrl(link: VideoLink): string | undefined {
  switch (link.platform) {
    case 'youtube':
      return `https://www.youtube.com/watch?v=${link.id}`;
    case 'vimeo':
      return link.hash ? `https://vimeo.com/${link.id}/${link.hash}` : `https://vimeo.com/${link.id}`;
    case 'instagram':
      return `https://www.instagram.com/${link.kind}/${link.id}/`;
    case 'x':
      return `https://x.com/${link.user ?? 'i'}/status/${link.id}`;
    default:
      return undefined;
  }
}

/**
 * The picture a link's card shows, when it follows from the link alone, with no network call:
 * YouTube's, from the video id. Other platforms need a request to theirs to name one, so they have none.
 */
export function linkThumbnailUrl(link: VideoLink): string | null {
  return link.platform === 'youtube' ? `https://i.ytimg.com/vi/${link.id}/hqdefault.jpg` : null;
}

function withQuery(base: string, params: URLSearchParams): string {
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}
