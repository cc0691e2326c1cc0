import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredObject {
  size: number;
  modified: Date;
}

/** An object found by `list`: its key and when it was last written. */
export interface ListedObject {
  key: string;
  modified: Date;
}

/**
 * Where media lives: local disk under DATA_DIR/media, or an S3-compatible bucket (S3_BUCKET,
 * docs/decisions/022). The interface speaks in keys ('videos/12/thumb.jpg'), never in file-system paths,
 * and every method maps onto one S3 call or a few (a download, for `localCopy`).
 */
export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /** Removes every object whose key starts with this prefix (a video's folder). */
  removePrefix(prefix: string): Promise<void>;
  /** Removes one object; nothing happens when there is none. */
  remove(key: string): Promise<void>;
  /** Takes a finished local file into the store under `key`; the local file is gone afterwards. */
  putFile(key: string, localFile: string): Promise<void>;
  /** Streams a body into the store under `key`: the bytes pass through, at most a part is held at once. */
  putStream(key: string, body: Readable): Promise<void>;
  /** Moves an object to another key inside the store (a rename on disk, a server-side copy in S3). */
  move(from: string, to: string): Promise<void>;
  /** Size and modification time, or null when there is no such object. */
  stat(key: string): Promise<StoredObject | null>;
  /** The bytes of an object, all or `start`..`end` inclusive. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /**
   * A local file holding the object, for ffmpeg, which reads files: on local disk the object itself; from
   * S3 a download into `workDir` (the job's scratch folder, removed with it when the job ends).
   */
  localCopy(key: string, workDir: string): Promise<string>;
  /** The objects under a prefix (the upload sweep's leftovers). */
  list(prefix: string): Promise<ListedObject[]>;
  /**
   * Where a CDN serves this public object (S3_PUBLIC_URL), or null when the app serves it itself under
   * /media/. Never asked for an original: those are the app's to hand out.
   */
  publicUrl(key: string): string | null;
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9/_.-]*$/i;
/** 1 MiB reads: the default 64 KiB makes streaming a large file several times slower. */
const READ_SIZE = 1024 * 1024;

/** Whether a key is one this store makes: no '..', '.', empty or absolute parts, nothing outside [a-z0-9/_.-]. */
export function isMediaKey(key: string): boolean {
  return (
    KEY_PATTERN.test(key) && !key.split('/').some((part) => part === '..' || part === '.' || part === '')
  );
}

export class LocalMediaStorage implements MediaStorage {
  readonly kind = 'local';
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The file path of a key; refuses any key that could leave the media folder. */
  pathOf(key: string): string {
    if (!isMediaKey(key)) throw new Error(`invalid media key: ${key}`);
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`invalid media key: ${key}`);
    return full;
  }

  async removePrefix(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix.replace(/\/+$/, '')), { recursive: true, force: true });
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async putFile(key: string, localFile: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await rename(localFile, target);
    } catch (error) {
      // Another file system (DATA_DIR/media mounted elsewhere): copy, then drop the source.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await copyFile(localFile, target);
      await unlink(localFile);
    }
  }

  async putStream(key: string, body: Readable): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    await pipeline(body, createWriteStream(target, { highWaterMark: READ_SIZE }));
  }

  async move(from: string, to: string): Promise<void> {
    await this.putFile(to, this.pathOf(from));
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size, modified: info.mtime } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const file = this.pathOf(key);
    // Opened before the answer starts, so a file gone meanwhile is an error the caller sees, not a cut body.
    const handle = await open(file, 'r');
    return handle.createReadStream({ ...range, highWaterMark: READ_SIZE });
  }

  async localCopy(key: string): Promise<string> {
    return this.pathOf(key);
  }

  async list(prefix: string): Promise<ListedObject[]> {
    const folder = this.pathOf(prefix.replace(/\/+$/, ''));
    const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      },
    );
    const files = entries.filter((entry) => entry.isFile());
    return Promise.all(
      files.map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return {
          key: path.relative(this.root, file).split(path.sep).join('/'),
          modified: (await stat(file)).mtime,
        };
      }),
    );
  }

  publicUrl(): string | null {
    return null;
  }
}

/** Every file of one video sits under this prefix, so deleting a video is one call. */
export function videoMediaPrefix(videoId: number): string {
  return `videos/${videoId}`;
}

/** The keys of one video's files (docs/decisions/007). */
export function videoMediaKeys(videoId: number) {
  const prefix = videoMediaPrefix(videoId);
  return {
    original: `${prefix}/original.mov`,
    mp4: `${prefix}/video.mp4`,
    thumbnail: `${prefix}/thumb.jpg`,
    hlsPlaylist: `${prefix}/hls/index.m3u8`,
    hlsFolder: `${prefix}/hls`,
  };
}

/** The public URL of a key: served by the media routes under /media/. */
export function mediaUrl(key: string): string {
  return `/media/${key}`;
}

/** A stored file's version: its size and modification time, the facts its ETag is made of (serve-file.ts). */
export function mediaVersion(object: StoredObject): string {
  return `${object.size.toString(36)}-${object.modified.getTime().toString(36)}`;
}

/**
 * The URL of this version of a file: it changes whenever the file does, so the media routes let
 * browsers keep what it answers for a year.
 */
export function versionedMediaUrl(key: string, object: StoredObject): string {
  return `${mediaUrl(key)}?v=${mediaVersion(object)}`;
}
