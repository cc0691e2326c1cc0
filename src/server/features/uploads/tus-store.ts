// Where tus keeps unfinished uploads (docs/decisions/007, 022). On local disk: DATA_DIR/uploads/tus/<id> with
// <id>.json beside it, so an upload survives a restart and a SIGKILL (its offset is the file's size). With
// S3_BUCKET: @tus/s3-store, an S3 multipart upload per tus upload (<id>, with <id>.info and, between chunks
// smaller than a part, <id>.part beside it at the bucket's root), so any instance can take the next chunk.
import { createWriteStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { CHUNK_SIZE_BYTES } from '#common/constants.js';
import type { DataStore, Upload } from '@tus/utils';
import type { MediaStorage } from '#server/media/storage.js';
import type { S3Settings } from '#server/media/s3-storage.js';
import type { UploadSource } from './uploads-service.js';

/** An unfinished upload is kept this long after it started (tus 'expiration'), then swept. */
export const UPLOAD_EXPIRY_MS = 3 * 24 * 60 * 60 * 1000;
const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** Ids are ours (32 hex digits): anything else is not an upload, before any file is looked at. */
export const isUploadId = (id: string) => UPLOAD_ID.test(id);

export interface TusStore {
  datastore: DataStore;
  /** Where a finished upload's bytes wait to become its video's original. */
  sourceOf(id: string): UploadSource;
  /** Our PATCH (tus-handlers.ts): the request's bytes (`length` of them, when the request said), at `offset`. */
  append(body: Readable, id: string, offset: number, length?: number): Promise<void>;
  /** Whether the upload's bytes are still here (not yet taken in as an original). */
  hasBytes(id: string): Promise<boolean>;
  /** An upload refused or cancelled: its bytes and its record go. */
  discard(id: string): Promise<void>;
  /** An upload taken in as an original: its record goes (its bytes went with the move). */
  forget(id: string): Promise<void>;
}

async function openLocalTusStore(uploadsDir: string): Promise<TusStore> {
  const directory = path.join(uploadsDir, 'tus');
  await mkdir(directory, { recursive: true });
  const datastore = new FileStore({ directory, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });
  const fileOf = (id: string) => path.join(directory, id);
  return {
    datastore,
    sourceOf: (id) => ({ file: fileOf(id) }),
    async append(body, id, offset) {
      // Straight into the file at its end: a 1 MiB write buffer, back-pressure on the socket (decision 007).
      await pipeline(
        body,
        createWriteStream(fileOf(id), { flags: 'r+', start: offset, highWaterMark: 1024 * 1024 }),
      );
    },
    hasBytes: async (id) => (await stat(fileOf(id)).catch(() => null)) !== null,
    async discard(id) {
      await datastore.remove(id).catch(() => datastore.configstore.delete(id));
    },
    forget: (id) => datastore.configstore.delete(id),
  };
}

/** 8 MiB parts: a chunk smaller than that waits in <id>.part until the next one completes a part. */
const S3_PART_SIZE = 8 * 1024 * 1024;
/**
 * What the browser sends per PATCH with media in a bucket (app config `uploadChunkBytes`): 4 parts, so every
 * PATCH streams straight into whole parts (tus-s3-store.ts) and pays its per-request reads once per 32 MiB.
 */
export const S3_CHUNK_SIZE_BYTES = 4 * S3_PART_SIZE;
/** The browser's tus chunk: 2 MB on disk (decision 007), whole S3 parts with a bucket (decision 022). */
export const tusChunkBytes = (inBucket: boolean) => (inBucket ? S3_CHUNK_SIZE_BYTES : CHUNK_SIZE_BYTES);

async function openS3TusStore(storage: MediaStorage, settings: S3Settings): Promise<TusStore> {
  const [{ StreamingS3Store }, { s3ClientConfig }] = await Promise.all([
    import('./tus-s3-store.js'),
    import('#server/media/s3-storage.js'),
  ]);
  const datastore = new StreamingS3Store({
    s3ClientConfig: { ...s3ClientConfig(settings), bucket: settings.bucket },
    partSize: S3_PART_SIZE,
    expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS,
    // Our sweep expires uploads (tus's deleteExpired); tags would only serve a bucket lifecycle rule.
    useTags: false,
    // No per-process cache of an upload's record beyond one append (tus-s3-store.ts): another instance may
    // have finished or cancelled it.
  });
  return {
    datastore,
    sourceOf: (id) => ({ key: id }),
    async append(body, id, offset, length) {
      await datastore.append(body, id, offset, length);
    },
    hasBytes: async (id) => (await storage.stat(id)) !== null,
    async discard(id) {
      // Unfinished: the library aborts the multipart upload. Finished: its object and records are plain ones.
      await datastore.remove(id).catch(() => {});
      for (const key of [id, `${id}.info`, `${id}.part`]) await storage.remove(key);
    },
    forget: (id) => storage.remove(`${id}.info`),
  };
}

/** The uploads' store: in the bucket when media is (S3_BUCKET), else under DATA_DIR/uploads/tus. */
export function openTusStore(options: {
  uploadsDir: string;
  storage: MediaStorage;
  s3: S3Settings | undefined;
}): Promise<TusStore> {
  return options.s3 ? openS3TusStore(options.storage, options.s3) : openLocalTusStore(options.uploadsDir);
}

/** The upload's record (offset, size, metadata), or null when there is none. */
export async function uploadOf(store: TusStore, uploadId: string): Promise<Upload | null> {
  try {
    return await store.datastore.getUpload(uploadId);
  } catch {
    return null;
  }
}
