const RELATIVE = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** When an alert came, as people say it: "just now", "5 minutes ago", "yesterday", then the date. */
export function timeAgo(iso: string, now: number = Date.now()): string {
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return '';
  const elapsed = Math.max(0, now - at);
  if (elapsed < MINUTE) return 'just now';
  if (elapsed < HOUR) return RELATIVE.format(-Math.floor(elapsed / MINUTE), 'minute');
  if (elapsed < DAY) return RELATIVE.format(-Math.floor(elapsed / HOUR), 'hour');
  if (elapsed < 7 * DAY) return RELATIVE.format(-Math.floor(elapsed / DAY), 'day');
  return DATE.format(at);
}

/** An alert's link stays on this site: a path, never '//host' (another site) or a scheme. */
export function alertHref(url: string): string {
  return url.startsWith('/') && !url.startsWith('//') && !url.includes('\\') ? url : '/notifications';
}
