// A capper's profile settings: display name and bio with the form's messages, an avatar checked by its bytes
// and size, made square and served from the media store (local disk, or the bucket with TEST_MEDIA_STORAGE=s3),
// removed again; each user edits only their own profile, and the public page shows what they set.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapperProfile } from '#common/schemas/cappers.js';
import {
  AVATAR_FORMAT,
  AVATAR_MAX_BYTES,
  AVATAR_MISSING,
  AVATAR_TOO_LARGE,
  AVATAR_UNREADABLE,
  BIO_TOO_LONG,
  DISPLAY_NAME_ONE_LINE,
  DISPLAY_NAME_TOO_LONG,
  type Profile,
} from '#common/schemas/profile.js';
import { mediaTools, run } from '#server/media/ffmpeg.js';
import { inBucket, storedKeys } from '../setup/stored-media.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { multipart, type FilePart } from '../setup/upload-requests.js';

type User = Awaited<ReturnType<typeof registerUser>>;

let t: TestApp;
let alice: User;
let bob: User;
let folder: string;
const pictures: Record<'png' | 'jpeg' | 'webp', Buffer> = {} as never;

beforeAll(async () => {
  t = await createTestApp();
  alice = await registerUser(t.app, {}, '10.35.0.1');
  bob = await registerUser(t.app, {}, '10.35.0.2');
  // Landscape pictures of each kind: the avatar is their centre, cropped square.
  folder = mkdtempSync(path.join(os.tmpdir(), 'pickreel-avatar-test-'));
  for (const [kind, extension] of [
    ['png', 'png'],
    ['jpeg', 'jpg'],
    ['webp', 'webp'],
  ] as const) {
    const file = path.join(folder, `picture.${extension}`);
    await run(mediaTools().ffmpeg, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=640x360',
      '-frames:v',
      '1',
      file,
    ]);
    pictures[kind] = readFileSync(file);
  }
});
afterAll(async () => {
  await t?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const patch = (user: User | null, payload: unknown) =>
  t.app.inject({
    method: 'PATCH',
    url: '/api/profile',
    payload: payload as object,
    headers: user ? { cookie: user.cookie } : {},
  });

const putAvatar = (user: User | null, file?: FilePart) => {
  const { payload, headers } = multipart({}, file && { field: 'avatar', ...file });
  return t.app.inject({
    method: 'PUT',
    url: '/api/profile/avatar',
    payload,
    headers: { ...headers, ...(user ? { cookie: user.cookie } : {}) },
  });
};

const publicProfile = async (username: string) => {
  const response = await t.app.inject({ method: 'GET', url: `/api/cappers/${username}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CapperProfile>().capper;
};

/** A PNG's width and height from its IHDR chunk. */
const pngSize = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

describe('display name and bio', () => {
  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/profile' })).statusCode).toBe(401);
    expect((await patch(null, { displayName: 'Nobody' })).statusCode).toBe(401);
    expect(
      (await putAvatar(null, { name: 'a.png', content: pictures.png, type: 'image/png' })).statusCode,
    ).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/profile/avatar' })).statusCode).toBe(401);
  });

  it('refuses a name over 40 characters, a name on two lines and a bio over 500, with the form’s messages', async () => {
    const tooLong = await patch(alice, { displayName: 'x'.repeat(41), bio: null });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toEqual({ message: DISPLAY_NAME_TOO_LONG });
    const twoLines = await patch(alice, { displayName: 'Sharp\nShooter' });
    expect(twoLines.statusCode).toBe(400);
    expect(twoLines.json()).toEqual({ message: DISPLAY_NAME_ONE_LINE });
    const longBio = await patch(alice, { displayName: null, bio: 'b'.repeat(501) });
    expect(longBio.statusCode).toBe(400);
    expect(longBio.json()).toEqual({ message: BIO_TOO_LONG });
    // Refused: nothing was written.
    expect(await publicProfile(alice.username)).toMatchObject({ displayName: null, bio: null });
  });

  it('saves them trimmed, at the limits, and the public page shows them at once', async () => {
    const name = `  ${'N'.repeat(40)}  `;
    const bio = 'b'.repeat(500);
    const saved = await patch(alice, { displayName: name, bio });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<Profile>()).toEqual({
      username: alice.username,
      displayName: 'N'.repeat(40),
      bio,
      avatarUrl: null,
      email: null,
      emailConfirmed: false,
      pendingEmail: null,
    });
    const readBack = await t.app.inject({
      method: 'GET',
      url: '/api/profile',
      headers: { cookie: alice.cookie },
    });
    expect(readBack.json<Profile>()).toEqual(saved.json<Profile>());

    const shortName = await patch(alice, {
      displayName: 'Sharp Shooter',
      bio: 'NBA sides.\nBankroll first.',
    });
    expect(shortName.statusCode).toBe(200);
    expect(await publicProfile(alice.username)).toMatchObject({
      displayName: 'Sharp Shooter',
      bio: 'NBA sides.\nBankroll first.',
    });
    // The signed-in session shows the new name too, not a cached one.
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/session',
      headers: { cookie: alice.cookie },
    });
    expect(session.json<{ user: { displayName: string } }>().user.displayName).toBe('Sharp Shooter');
  });

  it('clears a blank field', async () => {
    const cleared = await patch(bob, { displayName: '   ', bio: '' });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json<Profile>()).toMatchObject({ displayName: null, bio: null });
  });

  it("edits only the signed-in user's own profile", async () => {
    const before = await publicProfile(alice.username);
    // No route takes a user: a body naming another user changes nothing of theirs.
    const response = await patch(bob, {
      displayName: 'Bob',
      bio: null,
      username: alice.username,
      id: alice.id,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<Profile>().username).toBe(bob.username);
    expect(await publicProfile(alice.username)).toEqual(before);
    expect(await publicProfile(bob.username)).toMatchObject({ displayName: 'Bob' });
  });
});

describe('avatar', () => {
  let first: string;

  it('keeps a PNG as a 256 px square in the media store and serves it', async () => {
    const response = await putAvatar(alice, { name: 'me.png', content: pictures.png, type: 'image/png' });
    expect(response.statusCode, response.body).toBe(200);
    first = response.json<Profile>().avatarUrl!;
    expect(first).toMatch(new RegExp(`^/media/avatars/${alice.id}/[a-f0-9]{16}\\.png\\?v=`));
    const keys = await storedKeys(t, `avatars/${alice.id}/`);
    expect(keys).toEqual([first.slice('/media/'.length, first.indexOf('?'))]);

    const served = await t.app.inject({ method: 'GET', url: first });
    if (inBucket() && served.statusCode === 302) return; // a CDN serves it
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(pngSize(served.rawPayload)).toEqual({ width: 256, height: 256 });
    expect((await publicProfile(alice.username)).avatarUrl).toBe(first);
  });

  it('takes a JPEG and a WebP, by their bytes whatever their names say, and keeps one picture', async () => {
    const jpeg = await putAvatar(alice, { name: 'me.png', content: pictures.jpeg, type: 'image/png' });
    expect(jpeg.statusCode, jpeg.body).toBe(200);
    expect(jpeg.json<Profile>().avatarUrl).toMatch(/\.jpg\?v=/);
    const jpegServed = await t.app.inject({ method: 'GET', url: jpeg.json<Profile>().avatarUrl! });
    expect(jpegServed.headers['content-type']).toBe('image/jpeg');
    // The one before is gone: from the store and from its address.
    expect((await t.app.inject({ method: 'GET', url: first })).statusCode).toBe(404);

    const webp = await putAvatar(alice, { name: 'me.jpg', content: pictures.webp, type: 'image/jpeg' });
    expect(webp.statusCode, webp.body).toBe(200);
    const url = webp.json<Profile>().avatarUrl!;
    expect(url).toMatch(/\.png\?v=/);
    expect(await storedKeys(t, `avatars/${alice.id}/`)).toEqual([
      url.slice('/media/'.length, url.indexOf('?')),
    ]);
  });

  it('refuses a file that is not a picture, even named .png, and one that does not decode', async () => {
    const before = (await publicProfile(alice.username)).avatarUrl;
    const text = await putAvatar(alice, {
      name: 'avatar.png',
      content: Buffer.from('this is a text file, not a picture\n'.repeat(20)),
      type: 'image/png',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({ message: AVATAR_FORMAT });
    // A video is not a picture either.
    const mov = await putAvatar(alice, {
      name: 'avatar.png',
      content: Buffer.concat([Buffer.from([0, 0, 0, 20]), Buffer.from('ftypqt  '), Buffer.alloc(64)]),
      type: 'image/png',
    });
    expect(mov.statusCode).toBe(415);
    // A PNG's signature followed by nothing a decoder can read.
    const broken = await putAvatar(alice, {
      name: 'avatar.png',
      content: Buffer.concat([pictures.png.subarray(0, 8), Buffer.alloc(2000, 7)]),
      type: 'image/png',
    });
    expect(broken.statusCode).toBe(415);
    expect(broken.json()).toEqual({ message: AVATAR_UNREADABLE });
    const none = await putAvatar(alice);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ message: AVATAR_MISSING });
    expect((await publicProfile(alice.username)).avatarUrl).toBe(before);
  });

  it('refuses a picture over 2 MB', async () => {
    const big = Buffer.concat([pictures.png, Buffer.alloc(AVATAR_MAX_BYTES + 1 - pictures.png.length)]);
    const response = await putAvatar(bob, { name: 'big.png', content: big, type: 'image/png' });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: AVATAR_TOO_LARGE });
    expect(await storedKeys(t, `avatars/${bob.id}/`)).toEqual([]);
  });

  it("changes only the uploader's avatar, and removing it brings the initial back", async () => {
    const alices = (await publicProfile(alice.username)).avatarUrl;
    const bobs = await putAvatar(bob, { name: 'bob.png', content: pictures.png, type: 'image/png' });
    expect(bobs.statusCode).toBe(200);
    expect(bobs.json<Profile>().avatarUrl).toMatch(new RegExp(`^/media/avatars/${bob.id}/`));
    expect((await publicProfile(alice.username)).avatarUrl).toBe(alices);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/profile/avatar',
      headers: { cookie: bob.cookie },
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json<Profile>().avatarUrl).toBeNull();
    expect(await storedKeys(t, `avatars/${bob.id}/`)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: bobs.json<Profile>().avatarUrl! })).statusCode).toBe(
      404,
    );
    expect((await publicProfile(bob.username)).avatarUrl).toBeNull();
    expect((await publicProfile(alice.username)).avatarUrl).toBe(alices);
  });

  it('serves only avatars under /media/avatars/', async () => {
    for (const url of ['/media/avatars/../videos/1/thumb.jpg', '/media/avatars/1/x.txt', '/media/avatars/'])
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
  });
});
