// Which push services the server will send to (PUSH_SERVICE_HOSTS, docs/decisions/038). A browser hands us
// its push endpoint; we POST to it later. Accepting any URL would let anyone make the server call an address
// of their choosing, so an endpoint must be https on port 443 of a listed host, or an origin listed in full.
import { isIP } from 'node:net';

/** The browsers' push services: Chrome (FCM), Firefox (Mozilla autopush), Edge (WNS), Safari (Apple). */
export const DEFAULT_PUSH_SERVICE_HOSTS =
  'fcm.googleapis.com,updates.push.services.mozilla.com,*.notify.windows.com,web.push.apple.com,*.push.apple.com';

export interface PushServiceHosts {
  /** Host names (https, port 443); `*.example.com` matches any name below example.com, not itself. */
  hosts: string[];
  /** Origins listed in full (`https://push.example:8443`, `http://127.0.0.1:4100` for a local stand-in). */
  origins: string[];
}

const HOST_NAME = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Parses the setting; throws an Error naming the first entry it cannot accept. */
export function parsePushServiceHosts(raw: string): PushServiceHosts {
  const result: PushServiceHosts = { hosts: [], origins: [] };
  for (const entry of raw
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean)) {
    if (entry.includes('://')) {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw new Error(`${entry} is not a URL`);
      }
      if (url.origin !== entry.replace(/\/$/, '')) throw new Error(`${entry} must be an origin alone`);
      // Plain http only to this machine: a developer's or a test's stand-in, never across a network.
      if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname))
        throw new Error(`${entry}: http is allowed only for 127.0.0.1, [::1] or localhost`);
      if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw new Error(`${entry} must be https:// (or http:// on 127.0.0.1)`);
      result.origins.push(url.origin);
    } else {
      if (!HOST_NAME.test(entry) || isIP(entry))
        throw new Error(`${entry} is not a host name (an address must be listed as a full origin)`);
      result.hosts.push(entry);
    }
  }
  if (result.hosts.length + result.origins.length === 0) throw new Error('names no push service');
  return result;
}

/**
 * Why the endpoint is refused, or null when the server may POST to it: https on 443 to a listed host name,
 * or exactly a listed origin. No credentials in it, no IP address unless its origin is listed.
 */
export function endpointRefusal(endpoint: string, allowed: PushServiceHosts): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'is not a URL';
  }
  if (url.username || url.password) return 'must not carry a user name or password';
  if (allowed.origins.includes(url.origin)) return null;
  if (url.protocol !== 'https:') return 'must be an https:// URL';
  if (url.port !== '') return "must use https's own port";
  const host = url.hostname;
  if (isIP(host.replace(/^\[|\]$/g, ''))) return 'must name a push service, not an address';
  const listed = allowed.hosts.some((pattern) =>
    pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern,
  );
  return listed ? null : "is not one of the browsers' push services";
}
