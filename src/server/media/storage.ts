import { rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where media lives. Local disk under DATA_DIR/media now; an S3-compatible store is planned, so the
 * interface speaks in keys ('videos/12/thumb.jpg'), never in file-system paths.
 */
export interface MediaStorage {
  /** Removes every object whose key starts with this prefix (a video's folder). */
  removePrefix(prefix: string): Promise<void>;
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9/_.-]*$/i;

export class LocalMediaStorage implements MediaStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The file path of a key; refuses any key that could leave the media folder. */
  pathOf(key: string): string {
    if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '..' || part === '.' || part === '')) {
      throw new Error(`invalid media key: ${key}`);
    }
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`invalid media key: ${key}`);
    return full;
  }

  async removePrefix(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix.replace(/\/+$/, '')), { recursive: true, force: true });
  }
}

/** Every file of one video sits under this prefix, so deleting a video is one call. */
export function videoMediaPrefix(videoId: number): string {
  return `videos/${videoId}`;
}
