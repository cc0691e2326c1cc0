import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { DOCS_PREFIX } from './api-docs.js';

/**
 * A Content-Security-Policy that allows what PickReel really embeds: the video hosts' players
 * (spec 2 'Video card'), Stripe's card element (docs/product-decisions.md 'Payments'), and nothing else.
 */
const HELMET_OPTIONS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", 'https://js.stripe.com'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      mediaSrc: ["'self'", 'blob:', 'https:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'", 'https://api.stripe.com'],
      // The push alerts' service worker, /sw.js (docs/decisions/038).
      workerSrc: ["'self'"],
      frameSrc: [
        'https://www.youtube-nocookie.com',
        'https://www.youtube.com',
        'https://player.vimeo.com',
        'https://www.instagram.com',
        'https://platform.twitter.com',
        'https://js.stripe.com',
        'https://hooks.stripe.com',
      ],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'self'"],
    },
  },
  // Third-party players are embedded without CORP headers of their own.
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
};

/**
 * helmet decides the headers; they never vary by request, so they are computed once here rather than
 * by helmet's middleware on every request (it re-parses the CSP each time, a real share of a small API call).
 */
export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  let failure: unknown;
  helmet(HELMET_OPTIONS)({} as IncomingMessage, response, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}

/**
 * JSON from /api/ is never rendered as a document, so the page policies (CSP, frame options...) mean
 * nothing there; it keeps what does: no MIME sniffing, no cross-origin reads, no referrer leaks. A
 * small API call would otherwise spend more time writing its headers than its body.
 */
export const API_SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/** The page headers without HSTS, for a site served over plain HTTP. */
export function withoutHsts(headers: Record<string, string>): Record<string, string> {
  const { 'strict-transport-security': _hsts, ...rest } = headers;
  return rest;
}

export function registerSecurityHeaders(app: FastifyInstance): void {
  const httpsHeaders = securityHeaders();
  // HSTS only over HTTPS (RFC 6797 §7.2: a plain-HTTP answer must not carry it). Both sets are
  // made once; request.protocol follows TRUST_PROXY (X-Forwarded-Proto from the proxy in front).
  const httpHeaders = withoutHsts(httpsHeaders);
  app.addHook('onRequest', (request, reply, done) => {
    // The API reference (/api/docs) is a page: it gets the pages' policy, which it works within.
    if (request.url.startsWith('/api/') && !request.url.startsWith(DOCS_PREFIX))
      reply.headers(API_SECURITY_HEADERS);
    else reply.headers(request.protocol === 'https' ? httpsHeaders : httpHeaders);
    done();
  });
}
