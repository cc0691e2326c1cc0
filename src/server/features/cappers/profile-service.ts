// A capper's own profile settings: display name, bio, and an avatar kept in the media store beside the videos'
// thumbnails (local disk or the bucket), as a square picture the server made from the one sent.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AVATAR_FORMAT,
  AVATAR_SIZE,
  AVATAR_UNREADABLE,
  type Profile,
  type ProfileUpdate,
} from '#common/schemas/profile.js';
import type { Db } from '#server/db/client.js';
import { emit } from '#server/events/index.js';
import { HttpError, notFound } from '#server/lib/http-errors.js';
import { mediaTools, run } from '#server/media/ffmpeg.js';
import { versionedMediaUrl, type MediaStorage } from '#server/media/storage.js';
import { profileOf, saveAvatarUrl, saveProfileText } from '../auth/index.js';

/** Every avatar of one user sits under this prefix, so replacing or removing one clears the others. */
export const avatarPrefix = (userId: number) => `avatars/${userId}/`;
/** The keys this feature writes, and the only ones its media route serves. */
export const AVATAR_KEY = /^avatars\/\d+\/[a-f0-9]{16}\.(?:jpg|png)$/;

export type ImageKind = 'png' | 'jpeg' | 'webp';
/** Bytes needed to recognise the picture's kind. */
export const IMAGE_SIGNATURE_BYTES = 12;

/**
 * The picture's kind from its first bytes, never from its name or declared type (as an upload's MOV is
 * recognised): PNG's 8-byte signature, JPEG's SOI marker, WebP's RIFF….WEBP header.
 */
export function imageKindOf(head: Uint8Array): ImageKind | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => head[i] === b))
    return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return null;
}

async function readProfile(db: Db, userId: number): Promise<Profile> {
  const row = await profileOf(db, userId);
  if (!row) throw notFound('Account not found.');
  return row;
}

export const getProfile = readProfile;

export async function updateProfile(db: Db, userId: number, changes: ProfileUpdate): Promise<Profile> {
  await db.transaction(async (tx) => {
    await saveProfileText(tx, userId, changes);
    await emit(tx, { type: 'profile.changed', userId });
  });
  return readProfile(db, userId);
}

/**
 * Decodes the picture and writes it as a square of AVATAR_SIZE px, cropped at its centre: ffmpeg (already
 * the app's media tool) reads PNG, JPEG and WebP. A JPEG stays a JPEG; PNG and WebP become PNG, keeping
 * transparency. Whatever the file carried besides its first frame (metadata, animation) is dropped.
 */
async function squareAvatar(bytes: Buffer, kind: ImageKind, workDir: string): Promise<string> {
  const input = path.join(workDir, `in.${kind}`);
  const output = path.join(workDir, kind === 'jpeg' ? 'avatar.jpg' : 'avatar.png');
  await writeFile(input, bytes);
  const side = String(AVATAR_SIZE);
  try {
    await run(mediaTools().ffmpeg, [
      '-v',
      'error',
      '-nostdin',
      '-y',
      '-f',
      'image2',
      '-c:v',
      kind === 'jpeg' ? 'mjpeg' : kind,
      '-i',
      input,
      '-frames:v',
      '1',
      '-map_metadata',
      '-1',
      '-vf',
      `crop='min(iw,ih)':'min(iw,ih)',scale=${side}:${side}:flags=lanczos`,
      ...(kind === 'jpeg' ? ['-q:v', '3', '-pix_fmt', 'yuvj420p'] : ['-pix_fmt', 'rgba']),
      output,
    ]);
  } catch {
    // Bytes that look like a picture but do not decode as one: the person's problem, not the server's.
    throw new HttpError(415, AVATAR_UNREADABLE);
  }
  return output;
}

/** Replaces the user's avatar with the picture sent; the previous one's file goes. */
export async function setAvatar(
  db: Db,
  storage: MediaStorage,
  userId: number,
  bytes: Buffer,
): Promise<Profile> {
  const kind = imageKindOf(bytes.subarray(0, IMAGE_SIGNATURE_BYTES));
  if (!kind) throw new HttpError(415, AVATAR_FORMAT);
  const workDir = await mkdtemp(path.join(tmpdir(), 'pickreel-avatar-'));
  try {
    const file = await squareAvatar(bytes, kind, workDir);
    // A new name for each picture: its URL never served another one, so browsers and a CDN may keep it.
    const key = `${avatarPrefix(userId)}${randomBytes(8).toString('hex')}${path.extname(file)}`;
    const before = await storage.list(avatarPrefix(userId));
    await storage.putFile(key, file);
    const stored = await storage.stat(key);
    if (!stored) throw new Error(`avatar ${key} was not stored`);
    await db.transaction(async (tx) => {
      await saveAvatarUrl(tx, userId, versionedMediaUrl(key, stored));
      await emit(tx, { type: 'profile.changed', userId });
    });
    await Promise.all(before.map((object) => storage.remove(object.key)));
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  return readProfile(db, userId);
}

/** Back to the initial: the stored picture goes too (an address given at registration is simply dropped). */
export async function removeAvatar(db: Db, storage: MediaStorage, userId: number): Promise<Profile> {
  await db.transaction(async (tx) => {
    await saveAvatarUrl(tx, userId, null);
    await emit(tx, { type: 'profile.changed', userId });
  });
  await storage.removePrefix(avatarPrefix(userId));
  return readProfile(db, userId);
}
