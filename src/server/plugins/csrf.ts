import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../lib/http-errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery (docs/product-decisions.md 'Security overrides'): a state-changing request is accepted
 * only when the browser says it is same-origin (Sec-Fetch-Site), or, without that header, when Origin
 * (else Referer) names this site. Requests with neither header carry no victim's browser and pass.
 */
export function registerCsrfProtection(app: FastifyInstance, options: { exemptPaths: string[] }): void {
  const exempt = new Set(options.exemptPaths);
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method) || exempt.has(request.url.split('?')[0] ?? '')) return done();
    done(isSameSite(request) ? undefined : forbidden('Cross-site request refused.'));
  });
}

export function isSameSite(request: FastifyRequest): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string') return fetchSite === 'same-origin' || fetchSite === 'none';
  const source = request.headers.origin ?? request.headers.referer;
  if (source === undefined) return true;
  if (source === 'null') return false;
  try {
    // The whole origin: scheme, host and port. 'https://host' is another site than 'http://host'.
    // request.protocol and request.host follow TRUST_PROXY; URL() normalises default ports ('host:80').
    return new URL(source).origin === new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return false;
  }
}
