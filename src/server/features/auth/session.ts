import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Db } from '#server/db/client.js';
import { forbidden, unauthorized } from '#server/lib/http-errors.js';
import { deleteSession, findUserBySession, insertSession } from './sessions-repository.js';
import type { UserRow } from './users-repository.js';

export const SESSION_COOKIE = 'pickreel_sid';
const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionStore;
  }
  interface FastifyRequest {
    /** The signed-in user, loaded once per API request; null when signed out. */
    user: UserRow | null;
    /** Hash of this request's session token, when it carried a valid one. */
    sessionId: string | null;
  }
}

/** The database keeps only a hash of the token: a leaked table does not leak live sessions. */
export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

interface CacheEntry {
  user: UserRow;
  sessionId: string;
  until: number;
}

/**
 * Sessions live in the database (revocable); the lookups of a busy session are cached in memory for a
 * few seconds. Everything that ends a session or changes a user in this process invalidates the cache
 * at once; another instance on the same PostgreSQL sees a change within CACHE_TTL_MS.
 */
export class SessionStore {
  static readonly CACHE_TTL_MS = 5_000;
  static readonly CACHE_MAX_ENTRIES = 10_000;
  private readonly cache = new LRUCache<string, CacheEntry>({ max: SessionStore.CACHE_MAX_ENTRIES });
  /** Lookups under way, by raw cookie. */
  private readonly loading = new Map<string, Promise<CacheEntry | null>>();
  /** Counts changes that make cached sessions stale (forget): a lookup begun before one is not cached. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    /** The session's user, if the session is live (a test may count the lookups). */
    private readonly findUser: typeof findUserBySession = findUserBySession,
  ) {}

  /**
   * Reads the signed cookie and loads its user; a bad or expired cookie simply means signed out. Settled at
   * once (null) without a cookie or on a cached hit, so the hook adds no promise to most requests; a
   * promise only while the database is asked.
   */
  load(request: FastifyRequest): Promise<void> | null {
    request.user = null;
    request.sessionId = null;
    const raw = request.cookies[SESSION_COOKIE];
    if (!raw) return null;
    // Keyed by the raw signed cookie, so a cached hit skips the HMAC check and the hash as well.
    const cached = this.cache.get(raw);
    if (cached && cached.until > Date.now()) {
      SessionStore.apply(request, cached);
      return null;
    }
    this.cache.delete(raw);
    // One lookup per cookie at a time: when a busy session's entry expires, the requests that carry it
    // wait for the same query instead of each sending its own: under a crowd,
    // identical queries would otherwise queue behind one another.
    let pending = this.loading.get(raw);
    if (!pending) {
      pending = this.lookUp(request, raw).finally(() => {
        if (this.loading.get(raw) === pending) this.loading.delete(raw);
      });
      this.loading.set(raw, pending);
    }
    return pending.then((entry) => SessionStore.apply(request, entry));
  }

  private static apply(request: FastifyRequest, entry: CacheEntry | null): void {
    if (!entry) return;
    request.user = entry.user;
    request.sessionId = entry.sessionId;
  }

  /** Reads a cookie's session from the database and caches it, unless something changed meanwhile. */
  private async lookUp(request: FastifyRequest, raw: string): Promise<CacheEntry | null> {
    const unsigned = request.unsignCookie(raw);
    if (!unsigned.valid || !unsigned.value) return null;
    const sessionId = sessionIdOf(unsigned.value);
    const generation = this.generation;
    const now = Date.now();
    const user = await this.findUser(this.db, sessionId, new Date(now));
    if (!user) return null;
    const entry = { user, sessionId, until: now + SessionStore.CACHE_TTL_MS };
    // A session ended or a user changed while this query ran: its answer may predate that, so it is
    // used for the requests that were waiting on it but not kept for later ones.
    if (generation === this.generation) this.cache.set(raw, entry);
    return entry;
  }

  async start(reply: FastifyReply, request: FastifyRequest, userId: number): Promise<void> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
    await insertSession(this.db, { id: sessionIdOf(token), userId, expiresAt });
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      signed: true,
      expires: expiresAt,
    });
  }

  /** Ends the request's session (logout, or the old one at login). */
  async end(request: FastifyRequest): Promise<void> {
    const sessionId = request.sessionId;
    if (sessionId) {
      this.forget((entry) => entry.sessionId === sessionId);
      await deleteSession(this.db, sessionId);
      // A lookup that ran before the row was gone may have cached the session meanwhile.
      this.forget((entry) => entry.sessionId === sessionId);
    }
    request.user = null;
    request.sessionId = null;
  }

  /** A user changed (role, earnings) or was deleted: their cached sessions must be read again. */
  invalidateUser(userId: number): void {
    this.forget((entry) => entry.user.id === userId);
  }

  private forget(match: (entry: CacheEntry) => boolean): void {
    this.generation += 1;
    this.loading.clear();
    // Collected first: the cache's order is not to be changed while it is walked.
    const gone = [...this.cache.entries()].filter(([, entry]) => match(entry));
    for (const [raw] of gone) this.cache.delete(raw);
  }
}

export function clearSessionCookie(reply: FastifyReply, request: FastifyRequest): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
}

/** preHandler: 401 unless signed in. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.user) throw unauthorized();
}

/** preHandler: 401 when signed out, 403 unless an admin (spec 6, enforced here). */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (!request.user) throw unauthorized();
  if (!request.user.isAdmin) throw forbidden('Admin access required.');
}

/** The signed-in user in a handler behind requireUser. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized();
  return request.user;
}
