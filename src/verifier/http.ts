// The verifier's few HTTP requests: a network failure or a non-2xx answer becomes one clear sentence
// naming the request, never a stack trace.
import { VerificationError, messageOf } from './verification-error.js';

export type Fetch = typeof globalThis.fetch;

/** Generous: a page of 1,000 entries from a busy site must not fail a long run. */
const REQUEST_TIMEOUT_MS = 60_000;

export class SiteClient {
  /** The site URL without its trailing slash: paths are appended to it ('https://x.example/pickreel'). */
  readonly base: string;

  constructor(
    site: URL,
    private readonly fetch: Fetch,
  ) {
    this.base = `${site.origin}${site.pathname.replace(/\/+$/, '')}`;
  }

  /** GET `path`; the answer as text, or throws VerificationError('network'). */
  async text(path: string, signal?: AbortSignal): Promise<string> {
    const response = await this.get(path, signal);
    return this.read(path, response, () => response.text());
  }

  /** GET `path`; the answer parsed as JSON, or throws VerificationError('network'). */
  async json(path: string, signal?: AbortSignal): Promise<unknown> {
    const response = await this.get(path, signal);
    const text = await this.read(path, response, () => response.text());
    try {
      return JSON.parse(text);
    } catch {
      throw new VerificationError('network', `GET ${path} did not answer JSON`);
    }
  }

  /** GET `path` as it is, for callers that tell statuses apart (a reveal's 403 of a moderated pick). */
  async get(path: string, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    try {
      return await this.fetch(this.base + path, {
        headers: { accept: 'application/json, text/plain;q=0.9' },
        signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
      });
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      const why = cause ? messageOf(cause) : messageOf(error);
      throw new VerificationError('network', `GET ${this.base}${path} failed: ${why}`);
    }
  }

  /** The error for a non-2xx answer: its status, and the site's own message when it sent one. */
  async failure(path: string, response: Response): Promise<VerificationError> {
    let detail = '';
    try {
      const body = (await response.text()).trim();
      const parsed: unknown = body.startsWith('{') ? JSON.parse(body) : body;
      const message =
        typeof parsed === 'object' && parsed !== null && 'message' in parsed
          ? String(parsed.message)
          : String(parsed);
      detail = message ? `: ${message.slice(0, 200)}` : '';
    } catch {
      // The status alone says enough.
    }
    return new VerificationError(
      'network',
      `GET ${path} answered ${response.status} ${response.statusText}${detail}`,
    );
  }

  private async read(path: string, response: Response, body: () => Promise<string>): Promise<string> {
    if (!response.ok) throw await this.failure(path, response);
    try {
      return await body();
    } catch (error) {
      throw new VerificationError('network', `GET ${path}: the answer broke off (${messageOf(error)})`);
    }
  }
}
