// docs/product-decisions.md 'Accounts': after signing in or registering, the user returns to the page
// that sent them to /auth. That page travels in the URL (`/auth?next=/checkout/12`) so a reload keeps it, and
// it is only ever a path on this site: anything that could lead elsewhere (an open redirect) is dropped.
import { useLocation, useSearch } from 'wouter';

const NEXT_MAX_LENGTH = 2048;
/** A base no real page has: a value that resolves to another origin is not one of our paths. */
const BASE = 'https://pickreel.invalid';
/** Layers of percent-encoding looked through, so `/%2F%2Fevil` or `/%252F%252Fevil` cannot hide a `//`. */
const DECODE_ROUNDS = 3;

/**
 * What a URL parser removes or reads as a slash: controls (a tab or newline inside `/\t/evil.com` is
 * dropped, leaving `//evil.com`) and the backslash (`/\evil.com` is `//evil.com`).
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const REWRITTEN_BY_PARSER = /[\u0000-\u001f\u007f\\]/;

/** One slash and then not another: '//host' is protocol-relative, and 'javascript:' or 'https:' no path. */
function isLocalPath(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && !REWRITTEN_BY_PARSER.test(value);
}

function pathPart(value: string): string {
  return value.split(/[?#]/, 1)[0] ?? '';
}

/**
 * The same-site path to return to, or null when `raw` is missing, not a path of this site, or /auth itself
 * (which would send the user round in a circle). The path comes back as the URL parser normalises it.
 */
export function safeNextPath(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string' || raw.length > NEXT_MAX_LENGTH || !isLocalPath(raw)) return null;

  // A path that only decodes to '//host' or '/\host' is refused too, in case anything decodes it later.
  let layer = pathPart(raw);
  for (let round = 0; round < DECODE_ROUNDS; round += 1) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(layer);
    } catch {
      return null; // malformed percent-encoding: not a link this site made
    }
    if (decoded === layer) break;
    if (!isLocalPath(decoded)) return null;
    layer = decoded;
  }

  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return null;
  }
  // '/..//evil.com' resolves to the path '//evil.com': still this origin, but not a path to hand on.
  if (url.origin !== BASE || !isLocalPath(url.pathname)) return null;
  if (url.pathname === '/auth' || url.pathname.startsWith('/auth/')) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path === '/' ? null : path;
}

/** `encodeURIComponent`, keeping '/' readable: a query may hold it as it is (RFC 3986 §3.4). */
function encodeNext(path: string): string {
  return encodeURIComponent(path).replace(/%2F/gi, '/');
}

/** The sign-in (or register) page's address, carrying the page to come back to when there is one. */
export function authPath({ tab, next }: { tab?: 'login' | 'register'; next?: string | null } = {}): string {
  const query: string[] = [];
  if (tab === 'register') query.push('tab=register');
  const safe = safeNextPath(next);
  if (safe) query.push(`next=${encodeNext(safe)}`);
  return query.length > 0 ? `/auth?${query.join('&')}` : '/auth';
}

/** `next` from /auth's query string, made safe; null when there is none (go home). */
export function nextFromSearch(search: string): string | null {
  return safeNextPath(new URLSearchParams(search).get('next'));
}

/**
 * The page to come back to after signing in from here: this page, or on /auth itself the page /auth already
 * returns to. Read from window.location, as the browser encodes it (wouter's path and search are decoded);
 * wouter's hooks only make the caller render again when it changes.
 */
export function useReturnPath(): string | null {
  const [location] = useLocation();
  const _search = useSearch(); // subscribes: a new query string is a new page to return to
  if (typeof window === 'undefined') return null; // the home page's build-time render
  if (location === '/auth') return nextFromSearch(window.location.search);
  return safeNextPath(`${window.location.pathname}${window.location.search}`);
}
