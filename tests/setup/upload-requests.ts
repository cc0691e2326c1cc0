// Requests the upload tests send: a multipart body as the browser's FormData makes it, and tus metadata.
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

export const VALID_FIELDS = {
  title: 'Lakers at Celtics, Friday',
  description: 'Line movement and injuries, explained',
  emailInformation: 'Lakers +4.5 (2 units)',
  price: '25',
  category: 'General',
  duration: '2',
  isPremium: 'true',
  isExternalVideo: 'false',
} as const;

export interface FilePart {
  name: string;
  content: Buffer;
  type?: string;
  field?: string;
}

/** multipart/form-data: the fields in order, then the file (spec 7). */
export function multipart(fields: Record<string, string>, file?: FilePart) {
  const boundary = `----pickreel${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'video'}"; filename="${file.name}"\r\n` +
          `Content-Type: ${file.type ?? 'video/quicktime'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** POST /api/videos (spec 7) with these fields and file, signed in with `cookie` (or not, when null). */
export function postVideo(
  app: FastifyInstance,
  cookie: string | null,
  fields: Record<string, string>,
  file?: FilePart,
) {
  const { payload, headers } = multipart(fields, file);
  return app.inject({
    method: 'POST',
    url: '/api/videos',
    payload,
    headers: { ...headers, ...(cookie ? { cookie } : {}) },
  });
}

/** An instant `hours` from now to the second, as a leg's `startsAt` is written. */
export const inHours = (hours: number) =>
  new Date(Date.now() + hours * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** POST /api/videos for a link video with these legs (and any fields to override), as `cookie`'s user. */
export function postLinkPick(
  app: FastifyInstance,
  cookie: string,
  legs: readonly object[],
  fields: Record<string, string> = {},
) {
  return postVideo(app, cookie, {
    ...VALID_FIELDS,
    isExternalVideo: 'true',
    externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    duration: '',
    legs: JSON.stringify(legs),
    ...fields,
  });
}

/** tus Upload-Metadata: comma-separated `key base64(value)` pairs. */
export function tusMetadata(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
}

export const TUS = { 'tus-resumable': '1.0.0' } as const;

/** tus creation (POST /api/uploads) of `length` bytes with these fields, signed in with `cookie` (or not). */
export function tusCreate(
  app: FastifyInstance,
  cookie: string | null,
  length: number,
  fields: Record<string, string> = { ...VALID_FIELDS, filename: 'pick.mov' },
) {
  return app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: {
      ...TUS,
      'upload-length': String(length),
      'upload-metadata': tusMetadata(fields),
      ...(cookie ? { cookie } : {}),
    },
  });
}

/** A tus PATCH of `body` at `offset`; the body may be a stream the test feeds. */
export function tusPatch(
  app: FastifyInstance,
  cookie: string,
  location: string,
  offset: number,
  body: Buffer | Readable,
) {
  return app.inject({
    method: 'PATCH',
    url: location,
    headers: {
      ...TUS,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
      cookie,
    },
    payload: body,
  });
}

/** A tus HEAD: the upload's offset in its `upload-offset` header. */
export function tusHead(app: FastifyInstance, cookie: string, location: string) {
  return app.inject({ method: 'HEAD', url: location, headers: { ...TUS, cookie } });
}
