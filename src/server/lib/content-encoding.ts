// Compressed response bodies: JSON and pages go compressed to browsers that accept it.
import type { Transform } from 'node:stream';
import { promisify } from 'node:util';
import {
  brotliCompress,
  constants as zlibConstants,
  createBrotliCompress,
  createGzip,
  gzip,
} from 'node:zlib';
import { LRUCache } from 'lru-cache';

export type ContentEncoding = 'br' | 'gzip';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

// Browsers send a handful of distinct Accept-Encoding values: each is parsed once (bounded, so a client
// sending a new one per request cannot grow it). `false`: the identity (the cache holds no null).
const parsed = new LRUCache<string, ContentEncoding | false>({ max: 64 });

/** br, else gzip, when Accept-Encoding allows it (q=0 refuses); null for the identity. */
export function preferredEncoding(header: string | undefined): ContentEncoding | null {
  if (!header) return null;
  const known = parsed.get(header);
  if (known !== undefined) return known || null;
  const accepted = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name) accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  const encoding = allows('br') ? 'br' : allows('gzip') ? 'gzip' : null;
  parsed.set(header, encoding ?? false);
  return encoding;
}

const GZIP_OPTIONS = { level: 6 };
/** Brotli at quality 5: close to the best ratio on our JSON and text, in a fraction of quality 11's time. */
const brotliParams = (sizeHint?: number) => ({
  [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
  [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
  ...(sizeHint !== undefined && { [zlibConstants.BROTLI_PARAM_SIZE_HINT]: sizeHint }),
});

/**
 * Compresses off the event loop (zlib's thread pool): at quality 11 a catalog page would otherwise hold the
 * loop far longer than the request's own work.
 */
export function compress(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  if (encoding === 'gzip') return gzipAsync(body, GZIP_OPTIONS);
  return brotli(body, { params: brotliParams(body.length) });
}

/** The same compression as a stream, for a file sent as it is read. */
export function compressStream(encoding: ContentEncoding): Transform {
  return encoding === 'gzip' ? createGzip(GZIP_OPTIONS) : createBrotliCompress({ params: brotliParams() });
}

/** One body and its compressed forms, each made on first use and then kept (ready-made responses). */
export class EncodedBody {
  private readonly encoded: Partial<Record<ContentEncoding, Promise<Buffer>>> = {};

  constructor(readonly identity: Buffer) {}

  /** The bytes to send for this encoding; a failed compression is tried again by the next request. */
  in(encoding: ContentEncoding): Promise<Buffer> {
    let bytes = this.encoded[encoding];
    if (!bytes) {
      bytes = compress(this.identity, encoding);
      this.encoded[encoding] = bytes;
      bytes.catch(() => {
        if (this.encoded[encoding] === bytes) delete this.encoded[encoding];
      });
    }
    return bytes;
  }
}
