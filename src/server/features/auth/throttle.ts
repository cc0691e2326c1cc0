// Brute-force limits for sign-in and registration (docs/decisions/003), after OWASP's
// Authentication and Credential Stuffing cheat sheets: per client address, and per account per device
// class, counted in the database (auth_throttles) so that no flood of other keys can evict a lock.
import { isIPv6 } from 'node:net';
import type { Db } from '#server/db/client.js';
import { HttpError } from '#server/lib/http-errors.js';
import { deleteExpiredThrottles, hit, refund } from './throttle-repository.js';
import { usernameKey } from './usernames.js';

export interface AuthRateLimits {
  /** Attempts per client address per minute, per route (login, register). */
  perIpPerMinute: number;
  /** Failed logins per account per 15 minutes, counted apart for unknown devices and each known device. */
  failedLoginsPerUsername: number;
}

export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = { perIpPerMinute: 30, failedLoginsPerUsername: 10 };

const IP_WINDOW_MS = 60_000;
const ACCOUNT_WINDOW_MS = 15 * 60_000;

function waitFor(seconds: number): string {
  return seconds < 120 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
}

function tooMany(resetAt: Date, now: Date, message: (wait: string) => string): HttpError {
  const seconds = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
  return new HttpError(429, message(waitFor(seconds)), { 'retry-after': String(seconds) });
}

/**
 * One client for the per-address limit: an IPv4 address, or an IPv6 /64 (one subscriber's network holds
 * billions of addresses, so counting each alone would not limit anybody).
 */
export function clientBucket(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const [head = '', tail] = ip.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

/** The counter a sign-in attempt is charged to: the account, from unknown devices or from one known device. */
export interface AccountCharge {
  key: string;
}

export class AuthThrottle {
  constructor(
    private readonly db: Db,
    private readonly limits: AuthRateLimits,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Counts every attempt on the route from this client; 429 beyond the limit. */
  async chargeClient(route: 'login' | 'register', ip: string): Promise<void> {
    const now = this.clock();
    const result = await hit(
      this.db,
      `ip:${route}:${clientBucket(ip)}`,
      this.limits.perIpPerMinute,
      IP_WINDOW_MS,
      now,
    );
    if (result.hits > this.limits.perIpPerMinute) {
      throw tooMany(result.resetAt, now, (wait) => `Too many attempts. Please wait ${wait} and try again.`);
    }
  }

  /**
   * Counts a sign-in attempt against the account before the password is checked, so parallel guesses
   * cannot all slip under the limit; `succeeded` takes it back. Unknown devices share one counter per
   * account; a known device (its cookie names this account) has its own, which a stranger cannot fill.
   */
  async chargeAccount(username: string, knownDeviceId: string | null): Promise<AccountCharge> {
    const now = this.clock();
    const device = knownDeviceId ? `device:${knownDeviceId}` : 'unknown';
    const key = `login:${usernameKey(username)}:${device}`;
    const max = this.limits.failedLoginsPerUsername;
    const result = await hit(this.db, key, max, ACCOUNT_WINDOW_MS, now);
    if (result.hits > max) {
      throw tooMany(result.resetAt, now, (wait) =>
        knownDeviceId
          ? `Too many failed sign-ins from this device. Please wait ${wait} and try again.`
          : `Too many failed sign-ins for this account. Please wait ${wait} and try again, or sign in from a device you have signed in from before.`,
      );
    }
    return { key };
  }

  /** A right password: the attempt was not a failure. */
  async succeeded(charge: AccountCharge): Promise<void> {
    await refund(this.db, charge.key);
  }

  sweep(): Promise<void> {
    return deleteExpiredThrottles(this.db, this.clock());
  }
}
