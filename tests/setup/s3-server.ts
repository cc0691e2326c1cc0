// The S3-compatible server the API tests run the media and upload suites against
// (docs/decisions/022): @20minutes/s3rver, a maintained fork of s3rver keeping objects on the file system.
// It answers every call our store and lib-storage make, UploadPartCopy and ranges included, but not three
// multipart calls @tus/s3-store needs: ListParts (the offset of every HEAD and PATCH), ListMultipartUploads
// (its expiry sweep) and AbortMultipartUpload (cancel). They are answered here, in front of its router, from
// the folder where it keeps each upload's parts (`<directory>/<bucket>/._S3rver_uploads/<uploadId>/`).
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';

export const TEST_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}
type KoaMiddleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

interface S3rverStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  /** Writes an object's or a part's bytes; resolves [size, md5 hex]. */
  putContent(objectPath: string, content: unknown): Promise<[number, string]>;
  copyObject(
    srcBucket: string,
    srcKey: string,
    destBucket: string,
    destKey: string,
    replacementMetadata?: unknown,
  ): Promise<unknown>;
  putMetadata(bucket: string, key: string, metadata: unknown, md5?: string): Promise<void>;
  getMetadata(bucket: string, key: string): Promise<unknown>;
}

interface S3rverInstance {
  store: S3rverStore;
  middleware: KoaMiddleware[];
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}

const xml = (text: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${text}`;
const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The uploads s3rver keeps for a bucket: id, key, initiation time and parts. */
async function uploadsOf(store: S3rverStore, bucket: string) {
  const folder = store.getResourcePath(bucket, undefined, 'uploads');
  const ids = await readdir(folder).catch(() => [] as string[]);
  return Promise.all(
    ids.map(async (id) => {
      const dir = path.join(folder, id);
      const [key, info, names] = await Promise.all([
        readFile(path.join(dir, 'key'), 'utf8'),
        stat(path.join(dir, 'key')),
        readdir(dir),
      ]);
      const parts = await Promise.all(
        names
          .filter((name) => /^\d+$/.test(name))
          .map(async (name) => {
            const [file, md5] = await Promise.all([
              stat(path.join(dir, name)),
              readFile(path.join(dir, `${name}.md5`), 'utf8').catch(() => ''),
            ]);
            return { number: Number(name), size: file.size, md5, modified: file.mtime };
          }),
      );
      parts.sort((a, b) => a.number - b.number);
      return { id, key, dir, initiated: info.mtime, parts };
    }),
  );
}

/**
 * S3 makes an object or a part visible only once its request has completed; s3rver writes one in place, so a
 * request cut short (the app SIGKILLed mid-PATCH, uploads-restart.test.ts) left a short object or part that
 * ListParts and HeadObject counted, and that could still grow while the restarted app read its size: the
 * resumed upload then held some bytes twice. Here every write goes to a file of its own, renamed into place
 * when complete and removed when not, as S3 behaves.
 */
function atomicWrites(store: S3rverStore): void {
  const write = store.putContent.bind(store);
  store.putContent = (objectPath, content) =>
    intoPlace(objectPath, async (incoming) => {
      if (!Buffer.isBuffer(content)) return write(incoming, content);
      // s3rver's own write of a buffer resolves before the bytes are written.
      await writeFile(incoming, content);
      return [content.length, createHash('md5').update(content).digest('hex')] as [number, string];
    });
}

/** Writes `target` beside it (`write` gets that path) and renames it into place; removes it if writing fails. */
async function intoPlace<T>(target: string, write: (incoming: string) => Promise<T>): Promise<T> {
  // Not a number alone: the parts' listing above takes only files named by their number.
  const incoming = `${target}.incoming-${randomBytes(6).toString('hex')}`;
  try {
    const result = await write(incoming);
    await rename(incoming, target);
    return result;
  } catch (error) {
    await rm(incoming, { force: true });
    throw error;
  }
}

/**
 * CopyObject likewise: s3rver copies the object's file straight over the destination (`fs.copyFile`), so a GET
 * while it runs answers the part copied so far as if it were the object. That happens: a finished tus upload is
 * moved to `videos/<id>/original.mov` by the request and by its media job, whichever comes first, and the
 * restart test's download met the second copy under way (a prefix of 45 of 60 MB, in a loaded run). On S3 a
 * copy appears whole or not at all; here too now: the bytes and the records beside them are copied aside and
 * renamed into place, records first.
 */
function atomicCopies(store: S3rverStore): void {
  const copy = store.copyObject.bind(store);
  store.copyObject = async (srcBucket, srcKey, destBucket, destKey, replacementMetadata) => {
    const from = (resource: string) => store.getResourcePath(srcBucket, srcKey, resource);
    const to = (resource: string) => store.getResourcePath(destBucket, destKey, resource);
    if (from('object') === to('object'))
      return copy(srcBucket, srcKey, destBucket, destKey, replacementMetadata);
    await mkdir(path.dirname(to('object')), { recursive: true });
    const aside = (source: string, target: string) =>
      intoPlace(target, (incoming) => copyFile(source, incoming));
    if (replacementMetadata) await store.putMetadata(destBucket, destKey, replacementMetadata);
    else {
      await aside(from('metadata.json'), to('metadata.json'));
      await aside(from('object.md5'), to('object.md5'));
    }
    await aside(from('object'), to('object'));
    return store.getMetadata(destBucket, destKey);
  };
}

/** ListParts, ListMultipartUploads and AbortMultipartUpload, path-style, as the SDK sends them. */
function multipartCalls(store: S3rverStore): KoaMiddleware {
  return async (ctx, next) => {
    const [, bucket, ...rest] = ctx.path.split('/');
    const key = rest.map((part) => decodeURIComponent(part)).join('/');
    const uploadId = typeof ctx.query.uploadId === 'string' ? ctx.query.uploadId : undefined;
    if (!bucket) return next();
    if (ctx.method === 'GET' && !key && 'uploads' in ctx.query) {
      const uploads = await uploadsOf(store, bucket);
      ctx.type = 'application/xml';
      ctx.body = xml(
        `<ListMultipartUploadsResult><Bucket>${bucket}</Bucket><IsTruncated>false</IsTruncated>` +
          uploads
            .map(
              (upload) =>
                `<Upload><Key>${escapeXml(upload.key)}</Key><UploadId>${upload.id}</UploadId>` +
                `<Initiated>${upload.initiated.toISOString()}</Initiated></Upload>`,
            )
            .join('') +
          '</ListMultipartUploadsResult>',
      );
      return;
    }
    if (!key || !uploadId || (ctx.method !== 'GET' && ctx.method !== 'DELETE')) return next();
    const upload = (await uploadsOf(store, bucket)).find((entry) => entry.id === uploadId);
    if (!upload || upload.key !== key) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body = xml(`<Error><Code>NoSuchUpload</Code><Message>No such upload.</Message></Error>`);
      return;
    }
    if (ctx.method === 'DELETE') {
      await rm(upload.dir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    ctx.type = 'application/xml';
    ctx.body = xml(
      `<ListPartsResult><Bucket>${bucket}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${uploadId}</UploadId>` +
        '<IsTruncated>false</IsTruncated>' +
        upload.parts
          .map(
            (part) =>
              `<Part><PartNumber>${part.number}</PartNumber><ETag>"${part.md5}"</ETag>` +
              `<Size>${part.size}</Size><LastModified>${part.modified.toISOString()}</LastModified></Part>`,
          )
          .join('') +
        '</ListPartsResult>',
    );
  };
}

export interface TestS3Server {
  endpoint: string;
  close: () => Promise<void>;
}

/** Starts the server on a free loopback port, keeping its objects under `directory`. */
export async function startTestS3Server(directory: string): Promise<TestS3Server> {
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    // Path-style only: the tests reach it as 127.0.0.1, where no bucket name can be a host name.
    vhostBuckets: false,
    // The SDK's signatures are not what these tests check; s3rver's v4 check disagrees with the current SDK's.
    allowMismatchedSignatures: true,
  });
  const instance = server as S3rverInstance;
  atomicWrites(instance.store);
  atomicCopies(instance.store);
  instance.middleware.unshift(multipartCalls(instance.store));
  const address = await instance.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    close: () => instance.close(),
  };
}
