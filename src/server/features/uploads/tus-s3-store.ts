// @tus/s3-store with a straight path for PATCHes of known length (docs/decisions/022 'Uploads stream into the
// bucket'). The library's write() splits the request into parts through a temporary file each, uploads a part
// only once it is whole on disk, and keeps a chunk smaller than a part as `<id>.part`, fetched and put again
// at the next PATCH. When the upload has no such pending part and the PATCH says how long it is, every part
// of it (and a tail shorter than a part) is known before a byte arrives: each goes from the request straight
// into its UploadPart (or the `<id>.part` object) with its Content-Length, no temporary file, no copy, the
// socket's back-pressure reaching the store. Anything else (a pending part, no Content-Length) takes the
// library's own write(). The objects are the library's own layout, so either path can follow the other.
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import type { Part } from '@aws-sdk/client-s3';
import { S3Store, type MetadataValue, type Options } from '@tus/s3-store';

/** What a part's stream buffers between the request and the store's request. */
const PIPE_BUFFER = 1024 * 1024;
/** Listings kept for the next append (see `listings`): past this many, they are dropped. */
const LISTINGS_KEPT = 1000;

const sizeOf = (parts: Part[]) => parts.reduce((sum, part) => sum + (part.Size ?? 0), 0);

/**
 * The library's cache of an upload's `.info` record, served only to an append under way. The record never
 * changes (no deferred length here), but whether the upload still exists does: another instance may finish or
 * cancel it. A PATCH reads the record itself (uploadOf, under the upload's lock) before it appends, and
 * nothing can cancel it while the lock is held; inside the append the same record is not read again (it was,
 * two or three times per PATCH). Outside an append (HEAD, POST, finishing, expiry) every read goes to the
 * bucket, as before.
 */
class AppendCache implements NonNullable<Options['cache']> {
  private readonly records = new Map<string, MetadataValue>();
  private readonly appending = new Set<string>();

  async get(id: string) {
    return this.appending.has(id) ? this.records.get(id) : undefined;
  }
  async set(id: string, value: MetadataValue) {
    if (this.appending.has(id)) this.records.set(id, value);
  }
  async delete(id: string) {
    this.records.delete(id);
  }
  async list() {
    return [...this.records.keys()];
  }
  async during<T>(id: string, work: () => Promise<T>): Promise<T> {
    this.appending.add(id);
    try {
      return await work();
    } finally {
      this.appending.delete(id);
      this.records.delete(id);
    }
  }
}

export class StreamingS3Store extends S3Store {
  private readonly appendCache: AppendCache;
  /**
   * Each upload's last `ListParts` (HEAD and the PATCH's own read list them). An append reuses it when its
   * parts add up to the append's offset, which the PATCH checked under the upload's lock: parts are only ever
   * added, so a listing with that sum is the current one; anything else is listed again.
   */
  private readonly listings = new Map<string, Part[]>();

  constructor(options: Omit<Options, 'cache'>) {
    const cache = new AppendCache();
    super({ ...options, cache });
    this.appendCache = cache;
  }

  /**
   * Appends `length` bytes of `body` at `offset`, straight into the store when it can (see above); answers
   * the new offset. Completes the multipart upload when the last byte is in, as write() does.
   */
  async append(body: Readable, id: string, offset: number, length: number | undefined): Promise<number> {
    try {
      return await this.appendCache.during(id, () => this.appendOnce(body, id, offset, length));
    } finally {
      this.listings.delete(id);
    }
  }

  protected override async retrieveParts(id: string, partNumberMarker?: string): Promise<Part[]> {
    const parts = await super.retrieveParts(id, partNumberMarker);
    if (partNumberMarker === undefined) {
      if (this.listings.size >= LISTINGS_KEPT) this.listings.clear();
      this.listings.set(id, parts);
    }
    return parts;
  }

  private async appendOnce(
    body: Readable,
    id: string,
    offset: number,
    length: number | undefined,
  ): Promise<number> {
    if (length === undefined || !Number.isSafeInteger(length) || length <= 0)
      return this.write(body, id, offset);
    const metadata = await this.getMetadata(id);
    const size = metadata.file.size;
    if (size === undefined || offset + length > size) return this.write(body, id, offset);
    const listed = this.listings.get(id);
    const parts = listed && sizeOf(listed) === offset ? listed : await this.retrieveParts(id);
    // A pending `<id>.part` (the offset, checked under the upload's lock, counts it): the library prepends it.
    if (sizeOf(parts) !== offset) return this.write(body, id, offset);
    let partNumber = (parts.at(-1)?.PartNumber ?? 0) + 1;
    const partSize = this.calcOptimalPartSize(size);
    const reader = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    let leftover: Buffer | undefined;
    let written = 0;
    try {
      while (written < length) {
        const bytes = Math.min(partSize, length - written);
        const end = offset + written + bytes;
        const pipe = new PassThrough({ highWaterMark: PIPE_BUFFER });
        // The request's failure reaches the code below through `sending`; the pipe's own error event (the
        // store's request gone) must not be an uncaught one.
        pipe.on('error', () => {});
        // A request cut short is aborted, never ended: the store must not take a short part as whole.
        const abort = new AbortController();
        // A whole part, or the upload's last one: an S3 part. A shorter tail: `<id>.part`, as write() keeps it.
        const sending =
          bytes === partSize || end === size
            ? this.client.uploadPart(
                {
                  Bucket: this.bucket,
                  Key: id,
                  UploadId: metadata['upload-id'],
                  PartNumber: partNumber,
                  Body: pipe,
                  ContentLength: bytes,
                },
                { abortSignal: abort.signal },
              )
            : this.client.putObject(
                {
                  Bucket: this.bucket,
                  Key: this.partKey(id, true),
                  Body: pipe,
                  ContentLength: bytes,
                  Tagging: this.useCompleteTag('false'),
                },
                { abortSignal: abort.signal },
              );
        const failed = sending.then(
          () => new Promise<never>(() => {}),
          (error: unknown) => Promise.reject(error as Error),
        );
        failed.catch(() => {}); // observed below; no unhandled rejection while a read waits
        try {
          for (let left = bytes; left > 0;) {
            let chunk = leftover ?? (await Promise.race([reader.next(), failed])).value;
            leftover = undefined;
            if (!chunk) throw new Error('The chunk ended before its Content-Length.');
            if (chunk.length > left) {
              leftover = chunk.subarray(left);
              chunk = chunk.subarray(0, left);
            }
            left -= chunk.length;
            if (!pipe.write(chunk)) await Promise.race([once(pipe, 'drain'), failed]);
          }
          pipe.end();
          await sending;
        } catch (error) {
          abort.abort();
          pipe.destroy();
          await sending.catch(() => {});
          throw error;
        }
        written += bytes;
        if (bytes === partSize || end === size) partNumber += 1;
      }
      if (leftover || !(await reader.next()).done) throw new Error('The chunk ran past its Content-Length.');
    } finally {
      await reader.return?.();
    }
    const newOffset = offset + length;
    if (newOffset === size) {
      await this.finishMultipartUpload(metadata, await this.retrieveParts(id));
      await this.completeMetadata(metadata.file);
      await this.clearCache(id);
    }
    return newOffset;
  }
}
