// @tus/s3-store with a straight path for PATCHes of known length (docs/decisions/022 'Uploads stream into the
// bucket'). The library's write() splits the request into parts through a temporary file each, uploads a part
// only once it is whole on disk, and keeps a chunk smaller than a part as `<id>.part`, fetched and put again
// at the next PATCH. When the PATCH says how long it is, every part of it (and a tail shorter than a part) is
// known before a byte arrives: each goes from the request straight into its UploadPart (or the `<id>.part`
// object) with its Content-Length, no temporary file, no copy, the socket's back-pressure reaching the store;
// a pending `<id>.part` (shorter than a part) is read first and its bytes lead the first part. A PATCH without
// a Content-Length stages each piece in a temporary file until its length is known, then sends it the same
// way; the library's own write() is not used. The objects are the library's own layout.
//
// A `<id>.part` we write says where in the file it starts (S3 metadata `pickreel-start`), and counts toward
// the offset only when that is where the parts end. An instance killed mid-request can still have a part or a
// `.part` land in the bucket after it died (the rest of the body was in its socket's buffer), after the next
// instance already told the client where to resume: such a write then holds the same bytes at the same place
// (parts are whole and in order), or is a `.part` that no longer starts where the parts end, and is left out
// of the offset. Without the mark, a part landing late would be counted on top of the `.part` holding its
// first bytes, and the client would resume past bytes it never sent again.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import type { Part } from '@aws-sdk/client-s3';
import { S3Store, type MetadataValue, type Options } from '@tus/s3-store';
import { ERRORS, Upload } from '@tus/utils';
import { LRUCache } from 'lru-cache';
import { isNotFound } from '#server/media/s3-storage.js';

/** What a part's stream buffers between the request and the store's request. */
const PIPE_BUFFER = 1024 * 1024;
/** Listings kept for the next append (see `listings`): past this many, the least used go. */
const LISTINGS_KEPT = 1000;

const sizeOf = (parts: Part[]) => parts.reduce((sum, part) => sum + (part.Size ?? 0), 0);

/** The S3 metadata of a `<id>.part`: the file offset of its first byte. */
const PART_START = 'pickreel-start';

/** A pending `<id>.part`: its size and where it starts (unknown for one the library wrote, or an older one). */
interface PendingPart {
  size: number;
  start: number | undefined;
}

const startOf = (metadata: Record<string, string> | undefined): number | undefined => {
  const value = metadata?.[PART_START];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
};

/** Whether a pending part continues the parts that end at `end` (one without a start is taken as it is). */
const continues = (pending: PendingPart, end: number) => pending.start === undefined || pending.start === end;

/** The multipart upload is gone: completed or aborted (some stores answer NoSuchKey). */
const isMissingUpload = (error: unknown) => {
  const { name, Code } = (error ?? {}) as { name?: unknown; Code?: unknown };
  return [name, Code].some((code) => code === 'NoSuchUpload' || code === 'NoSuchKey');
};

/** The upload changed since this PATCH read its offset (a late write landed): the client asks again. */
const movedOn = () =>
  Object.assign(new Error('The upload moved on since its offset was read.'), { statusCode: 409 });

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
  private readonly listings = new LRUCache<string, Part[]>({ max: LISTINGS_KEPT });

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
      this.listings.set(id, parts);
    }
    return parts;
  }

  /**
   * The upload's record and offset, as the library answers them, except that a pending `<id>.part` counts only
   * when it starts where the parts end (see the top of this file).
   */
  override async getUpload(id: string): Promise<Upload> {
    let metadata: MetadataValue;
    try {
      metadata = await this.getMetadata(id);
    } catch {
      throw ERRORS.FILE_NOT_FOUND;
    }
    const { file } = metadata;
    let parts: Part[];
    try {
      parts = await this.retrieveParts(id);
    } catch (error) {
      // The multipart upload was completed (or aborted) and its record is still there: it is whole.
      if (isMissingUpload(error))
        return new Upload({ ...file, offset: file.size ?? 0, size: file.size, metadata: file.metadata });
      throw error;
    }
    const end = sizeOf(parts);
    const pending = await this.pendingPart(id);
    return new Upload({
      ...file,
      offset: end + (pending && continues(pending, end) ? pending.size : 0),
      size: file.size,
    });
  }

  /** The pending `<id>.part`'s size and start, without its bytes. */
  private async pendingPart(id: string): Promise<PendingPart | undefined> {
    try {
      const head = await this.client.headObject({ Bucket: this.bucket, Key: this.partKey(id, true) });
      return { size: head.ContentLength ?? 0, start: startOf(head.Metadata) };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** The pending `<id>.part` whole (shorter than a part), with its size and start. */
  private async readPendingPart(id: string): Promise<(PendingPart & { bytes: Buffer }) | undefined> {
    try {
      const object = await this.client.getObject({ Bucket: this.bucket, Key: this.partKey(id, true) });
      const chunks: Buffer[] = [];
      for await (const chunk of object.Body as Readable) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      return { bytes, size: bytes.length, start: startOf(object.Metadata) };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  private async removePendingPart(id: string): Promise<void> {
    await this.client.deleteObject({ Bucket: this.bucket, Key: this.partKey(id, true) });
  }

  private async appendOnce(
    body: Readable,
    id: string,
    offset: number,
    length: number | undefined,
  ): Promise<number> {
    const metadata = await this.getMetadata(id);
    const size = metadata.file.size;
    // The PATCH handler answers 404 for an upload without a length (none is made without one).
    if (size === undefined) throw new Error('This upload has no length.');
    const listed = this.listings.get(id);
    const parts = listed && sizeOf(listed) === offset ? listed : await this.retrieveParts(id);
    const end = sizeOf(parts);
    // A pending `<id>.part` (the offset, checked under the upload's lock, counts it): its bytes lead the first
    // part. It must still be the one the offset counted; anything else landed since, and the client asks again.
    let leftover: Buffer | undefined;
    if (end !== offset) {
      const pending = await this.readPendingPart(id);
      if (!pending || !continues(pending, end) || pending.size !== offset - end) throw movedOn();
      leftover = pending.bytes;
    }
    const took = leftover !== undefined;
    const from = { id, uploadId: metadata['upload-id'], size, partSize: this.calcOptimalPartSize(size) };
    const reader = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    let sent: { end: number; pendingWritten: boolean };
    try {
      const next = { start: end, partNumber: (parts.at(-1)?.PartNumber ?? 0) + 1, leftover };
      sent =
        length !== undefined && Number.isSafeInteger(length) && length > 0
          ? await this.sendKnown(from, reader, next, offset + length)
          : await this.sendStaged(from, reader, next);
    } finally {
      await reader.return?.();
    }
    // The pending part's bytes are in a part now; left in place it would no longer count (it starts before the
    // parts' end), so it only goes for tidiness.
    if (took && !sent.pendingWritten) await this.removePendingPart(id);
    const newOffset = sent.end;
    if (newOffset === size) {
      const all = await this.retrieveParts(id);
      // Never an object of another length than the upload's: that would be a file with bytes twice or missing.
      if (sizeOf(all) !== size) throw new Error(`The upload's parts hold ${sizeOf(all)} bytes, not ${size}.`);
      await this.finishMultipartUpload(metadata, all);
      await this.completeMetadata(metadata.file);
      await this.clearCache(id);
      await this.removePendingPart(id); // a stale one, if a late write left it
    }
    return newOffset;
  }

  /**
   * One piece into the store: a whole part (a part's size, or the upload's last one) as an S3 part, a shorter
   * tail as `<id>.part` marked with where it starts.
   */
  private sendPiece(from: Appending, piece: Piece, Body: Readable, abortSignal?: AbortSignal) {
    const { bytes: ContentLength } = piece;
    return piece.whole
      ? this.client.uploadPart(
          {
            Bucket: this.bucket,
            Key: from.id,
            UploadId: from.uploadId,
            PartNumber: piece.partNumber,
            Body,
            ContentLength,
          },
          { abortSignal },
        )
      : this.client.putObject(
          {
            Bucket: this.bucket,
            Key: this.partKey(from.id, true),
            Body,
            ContentLength,
            Metadata: { [PART_START]: String(piece.start) },
            Tagging: this.useCompleteTag('false'),
          },
          { abortSignal },
        );
  }

  /**
   * A PATCH of known length: where every piece of it starts and ends is known before a byte arrives, so each
   * streams from the request into its request to the store through a small pipe, one after another.
   */
  private async sendKnown(
    from: Appending,
    reader: AsyncIterator<Buffer>,
    next: { start: number; partNumber: number; leftover: Buffer | undefined },
    until: number,
  ): Promise<{ end: number; pendingWritten: boolean }> {
    let { start, partNumber, leftover } = next;
    let pendingWritten = false;
    while (start < until) {
      const bytes = Math.min(from.partSize, until - start);
      const piece = pieceAt(from, start, bytes, partNumber);
      const pipe = new PassThrough({ highWaterMark: PIPE_BUFFER });
      // The request's failure reaches the code below through `sending`; the pipe's own error event (the store's
      // request gone) must not be an uncaught one.
      pipe.on('error', () => {});
      // A request cut short is aborted, never ended: the store must not take a short part as whole.
      const abort = new AbortController();
      const sending = this.sendPiece(from, piece, pipe, abort.signal);
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
      start += bytes;
      if (piece.whole) partNumber += 1;
      else pendingWritten = true;
    }
    if (leftover || !(await reader.next()).done) throw new Error('The chunk ran past its Content-Length.');
    return { end: start, pendingWritten };
  }

  /**
   * A PATCH without a Content-Length (a chunked request: tus-js-client in Node.js given a Buffer sends one):
   * how long each piece is becomes known only once the body reaches a part's size or ends, so each is staged
   * whole in a temporary file first, then sent with its length as above: parts of a part's size in order, and
   * a tail as a marked `<id>.part`, so a late write is as harmless as on the other path. A body cut short
   * loses its staged piece; the parts before it stay. (The library's write() staged the same way but wrote
   * an unmarked `.part`, and parts of any size from 5 MiB up, which a late write could overlap.)
   */
  private async sendStaged(
    from: Appending,
    reader: AsyncIterator<Buffer>,
    next: { start: number; partNumber: number; leftover: Buffer | undefined },
  ): Promise<{ end: number; pendingWritten: boolean }> {
    let { start, partNumber, leftover } = next;
    let pendingWritten = false;
    let ended = false;
    while (!ended && start < from.size) {
      const room = Math.min(from.partSize, from.size - start);
      const file = path.join(os.tmpdir(), `pickreel-tus-${randomBytes(12).toString('hex')}.part`);
      try {
        let bytes = 0;
        const handle = await open(file, 'wx', 0o600);
        try {
          while (bytes < room) {
            let chunk = leftover;
            leftover = undefined;
            if (!chunk) {
              const read = await reader.next();
              if (read.done) {
                ended = true;
                break;
              }
              chunk = read.value;
            }
            if (chunk.length > room - bytes) {
              leftover = chunk.subarray(room - bytes);
              chunk = chunk.subarray(0, room - bytes);
            }
            await handle.write(chunk);
            bytes += chunk.length;
          }
        } finally {
          await handle.close();
        }
        if (bytes === 0) break;
        const piece = pieceAt(from, start, bytes, partNumber);
        await this.sendPiece(from, piece, createReadStream(file));
        start += bytes;
        if (piece.whole) partNumber += 1;
        else pendingWritten = true;
      } finally {
        await rm(file, { force: true });
      }
    }
    if (leftover || (!ended && !(await reader.next()).done))
      throw new Error('The chunk ran past the upload length.');
    return { end: start, pendingWritten };
  }
}

/** The upload a PATCH appends to. */
interface Appending {
  id: string;
  uploadId: string;
  size: number;
  partSize: number;
}

/** A piece of a PATCH as it goes to the store: a part (numbered) or the pending `<id>.part`. */
interface Piece {
  start: number;
  bytes: number;
  partNumber: number;
  whole: boolean;
}

/** The piece of `bytes` at `start`: whole (an S3 part) when a part's size or the upload's last bytes. */
const pieceAt = (from: Appending, start: number, bytes: number, partNumber: number): Piece => ({
  start,
  bytes,
  partNumber,
  whole: bytes === from.partSize || start + bytes === from.size,
});
