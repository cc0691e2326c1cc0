import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

export interface StoredObject {
  size: number;
  modified: Date;
}

/**
 * Where media lives. Local disk under DATA_DIR/media now; an S3-compatible store is planned, so the
 * interface speaks in keys ('videos/12/thumb.jpg'), never in file-system paths, and stays this small:
 * every method maps onto one S3 call (or a download, for `localCopy`).
 */
export interface MediaStorage {
  /** Removes every object whose key starts with this prefix (a video's folder). */
  removePrefix(prefix: string): Promise<void>;
  /** Takes a finished local file into the store under `key`; the local file is gone afterwards. */
  putFile(key: string, localFile: string): Promise<void>;
  /** Size and modification time, or null when there is no such object. */
  stat(key: string): Promise<StoredObject | null>;
  /** The bytes of an object, all or `start`..`end` inclusive. */
  read(key: string, range?: { start: number; end: number }): Readable;
  /** A local file holding the object (ffmpeg reads files): the object itself on local disk. */
  localCopy(key: string): Promise<string>;
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9/_.-]*$/i;
/** 1 MiB reads: the default 64 KiB makes streaming a large file several times slower (issue 4). */
const READ_SIZE = 1024 * 1024;

export class LocalMediaStorage implements MediaStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The file path of a key; refuses any key that could leave the media folder. */
  pathOf(key: string): string {
    if (
      !KEY_PATTERN.test(key) ||
      key.split('/').some((part) => part === '..' || part === '.' || part === '')
    ) {
      throw new Error(`invalid media key: ${key}`);
    }
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`invalid media key: ${key}`);
    return full;
  }

  async removePrefix(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix.replace(/\/+$/, '')), { recursive: true, force: true });
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

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size, modified: info.mtime } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(key), { ...range, highWaterMark: READ_SIZE });
  }

  async localCopy(key: string): Promise<string> {
    return this.pathOf(key);
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
 * The URL of this version of a file (issue 12): it changes whenever the file does, so the media routes let
 * browsers keep what it answers for a year.
 */
export function versionedMediaUrl(key: string, object: StoredObject): string {
  return `${mediaUrl(key)}?v=${mediaVersion(object)}`;
}
