// What one client can hold of the server: slow or idle connections are closed,
// and one address cannot open more than its share of sockets. A reverse proxy in front adds what a single
// process cannot do well (README 'Behind a reverse proxy').
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

export interface ConnectionLimits {
  /** From a connection's (or request's) first byte to the end of its headers. */
  headersTimeoutMs: number;
  /** A whole request, body included (a 50 MB multipart upload on a slow line; tus chunks are 2 MB). */
  requestTimeoutMs: number;
  /** A socket with nothing sent or received for this long is closed (a paused download reconnects with Range). */
  idleTimeoutMs: number;
  /** An idle keep-alive connection between two requests. */
  keepAliveTimeoutMs: number;
  /** How often Node checks the header and request deadlines. */
  checkIntervalMs: number;
  /** Open sockets in all; beyond it new connections are dropped at once. */
  maxConnections: number;
  /** Open sockets per client address (IPv6: per /64), unless the peer is a trusted proxy. */
  maxConnectionsPerAddress: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15 * 60_000,
  idleTimeoutMs: 60_000,
  keepAliveTimeoutMs: 10_000,
  checkIntervalMs: 1_000,
  maxConnections: 10_000,
  // Browsers open 6 per host; a household or an office behind one address stays well under this.
  maxConnectionsPerAddress: 256,
};

/** The Fastify (and Node http.Server) options that carry the deadlines. */
export function serverTimeoutOptions(limits: ConnectionLimits): Pick<
  FastifyServerOptions,
  'connectionTimeout' | 'keepAliveTimeout' | 'requestTimeout'
> & {
  http: ServerOptions;
} {
  return {
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
  };
}

/** The key a client's sockets are counted under: the IPv4 address, or the IPv6 /64 (one subscriber's). */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

/**
 * Counts open sockets per client address and closes a new one beyond the cap (before any byte is read), so
 * 1,500 slow sockets from one client cannot take the file descriptors everyone else needs. A trusted proxy
 * carries many clients on its sockets: it is not capped here (the proxy limits per client itself).
 */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  options: { isTrustedProxy: (address: string) => boolean; log: FastifyBaseLogger },
): void {
  server.maxConnections = limits.maxConnections;
  const open = new Map<string, number>();
  let refusedSinceLog = 0;
  let lastLog = 0;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || options.isTrustedProxy(address)) return;
    const key = addressKey(address);
    const count = (open.get(key) ?? 0) + 1;
    if (count > limits.maxConnectionsPerAddress) {
      socket.destroy();
      refusedSinceLog += 1;
      const now = Date.now();
      // One line a minute at most: the log must not become the next thing a flood exhausts.
      if (now - lastLog >= 60_000) {
        options.log.warn(
          { address: key, refused: refusedSinceLog, limit: limits.maxConnectionsPerAddress },
          'too many connections from one address; refusing the extra ones',
        );
        lastLog = now;
        refusedSinceLog = 0;
      }
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
}
