// Business constants of spec section 9, shared by client and server.

export const PRODUCT_NAME = 'PickReel';
export const HOME_SECTION_TITLE = "Today's Picks";
export const DEFAULT_SUPPORT_PHONE = '+1 (555) 010-0199';
/** The meta tag in index.html that carries the browser's settings (see schemas/app-config.ts). */
export const APP_CONFIG_META_NAME = 'pickreel-config';
export const RESPONSIBLE_GAMBLING_LINE = '21+ only. Gambling problem? Call 1-800-GAMBLER.';

/** Platform cut on sales, charged as a processing fee on payouts (spec 1, 9). */
export const PLATFORM_CUT_PERCENT = 10;

export const USERNAME_MIN_LENGTH = 3;
export const PASSWORD_MIN_LENGTH = 6;
export const PHONE_MIN_LENGTH = 10;

/** Limits of the server's own choosing: keep a request from carrying a novel. */
export const USERNAME_MAX_LENGTH = 50;
export const PASSWORD_MAX_LENGTH = 200;

export const CATEGORIES = [
  'General',
  'NBA',
  'NFL',
  'MLB',
  'NHL',
  'College Basketball',
  'College Football',
  'Soccer',
  'UFC/MMA',
  'Boxing',
  'Golf',
  'Tennis',
  'Horse Racing',
  'NASCAR',
  'Formula 1',
  'Fantasy Sports',
  'Player Props',
  'Parlays',
  'Daily Picks',
] as const;
export type Category = (typeof CATEGORIES)[number];
export const DEFAULT_CATEGORY: Category = 'General';

export const PAYMENT_METHODS = ['paypal', 'bank', 'venmo', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const MAX_UPLOAD_BYTES = 15 * 1024 ** 3;
export const STANDARD_UPLOAD_MAX_BYTES = 50 * 1024 ** 2;
export const CHUNK_SIZE_BYTES = 2 * 1024 ** 2;
export const STANDARD_UPLOAD_TIMEOUT_MS = 10 * 60 * 1000;

export const HOME_PLACEHOLDER_CARDS = 3;

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export const NAV_SHADOW_SCROLL_PX = 10;
export const NAV_REFRESH_SPIN_MS = 1000;

export const PLAY_START_DELAY_MS = 100;
export const PLAYBACK_RETRY_DELAYS_MS = [200, 500] as const;
export const INSTAGRAM_RELOAD_DELAY_MS = 1000;
export const REDIRECT_AFTER_UPLOAD_MS = 1000;
