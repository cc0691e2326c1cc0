// Where tus keeps unfinished uploads: DATA_DIR/uploads/tus/<id> with <id>.json beside it, so an upload
// survives a restart and a SIGKILL (its offset is the file's size; docs/decisions/007).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import type { Upload } from '@tus/server';

/** An unfinished upload is kept this long after it started (tus 'expiration'), then swept. */
export const UPLOAD_EXPIRY_MS = 3 * 24 * 60 * 60 * 1000;
const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** Ids are ours (32 hex digits): anything else is not an upload, before any file is looked at. */
export const isUploadId = (id: string) => UPLOAD_ID.test(id);

export interface TusStore {
  datastore: FileStore;
  /** The folder of the uploads' files: an upload's bytes are at path.join(directory, id). */
  directory: string;
}

export async function openTusStore(uploadsDir: string): Promise<TusStore> {
  const directory = path.join(uploadsDir, 'tus');
  await mkdir(directory, { recursive: true });
  return {
    datastore: new FileStore({ directory, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS }),
    directory,
  };
}

/** The upload's record (offset, size, metadata), or null when there is none. */
export async function uploadOf(store: TusStore, uploadId: string): Promise<Upload | null> {
  try {
    return await store.datastore.getUpload(uploadId);
  } catch {
    return null;
  }
}
