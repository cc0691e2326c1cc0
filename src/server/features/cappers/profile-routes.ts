// A capper's own profile settings (GET/PATCH /api/profile, PUT/DELETE /api/profile/avatar), and the avatars'
// files under /media/avatars/. Each user edits their own profile only: the routes take no user id.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NoBodySchema } from '#common/schemas/api.js';
import {
  AVATAR_FILE_FIELD,
  AVATAR_MAX_BYTES,
  AVATAR_MISSING,
  AVATAR_TOO_LARGE,
  AvatarFormDataSchema,
  ProfileSchema,
  ProfileUpdateSchema,
} from '#common/schemas/profile.js';
import type { Db } from '#server/db/client.js';
import { currentUser, requireUser } from '#server/features/auth/index.js';
import { badRequest, HttpError, notFound } from '#server/lib/http-errors.js';
import {
  findMediaFile,
  MEDIA_FILE_CONTENT,
  redirectToPublicUrl,
  sendMediaFile,
} from '#server/media/serve-file.js';
import type { MediaStorage } from '#server/media/storage.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { AVATAR_KEY, getProfile, removeAvatar, setAvatar, updateProfile } from './profile-service.js';

export interface ProfileRoutesOptions {
  db: Db;
  storage: MediaStorage;
}

/** The picture sent, whole (at most 2 MB, so it is held in memory, never written anywhere as sent). */
async function readAvatar(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw badRequest('Send the picture as multipart/form-data.');
  let picture: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== AVATAR_FILE_FIELD || picture) {
        part.file.resume(); // an unknown or second file is read and dropped
        continue;
      }
      picture = await part.toBuffer();
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, AVATAR_TOO_LARGE);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw badRequest('Send one picture.');
    throw error;
  }
  if (!picture || picture.length === 0) throw badRequest(AVATAR_MISSING);
  return picture;
}

export async function profileRoutes(app: FastifyInstance, options: ProfileRoutesOptions) {
  const { db, storage } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  tagRoutes(app, 'Profile');
  await app.register(multipart, {
    limits: { fileSize: AVATAR_MAX_BYTES, files: 2, fields: 5, fieldSize: 1024, parts: 8, headerPairs: 100 },
  });

  /**
   * The signed-in user's own session shows the new name and picture (the public page and the cards follow
   * profile.changed's subscribers).
   */
  const changed = (userId: number) => {
    app.sessions.invalidateUser(userId);
  };

  api.get(
    '/api/profile',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Your profile settings',
        description: 'The display name, bio and avatar shown on your public page, /cappers/{username}.',
        response: { 200: ProfileSchema, ...errorResponses(401) },
      },
    },
    async (request) => getProfile(db, currentUser(request).id),
  );

  api.patch(
    '/api/profile',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Change your display name and bio',
        description:
          'Both fields are replaced: a blank or null one is cleared (the page then shows the username, and no bio).',
        body: ProfileUpdateSchema,
        response: { 200: ProfileSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const profile = await updateProfile(db, user.id, request.body);
      changed(user.id);
      return profile;
    },
  );

  api.put(
    '/api/profile/avatar',
    {
      preHandler: requireUser,
      config: { multipartBody: AvatarFormDataSchema },
      schema: {
        summary: 'Upload your avatar',
        description:
          'multipart/form-data with the picture in `avatar`: PNG, JPEG or WebP (recognised by its bytes, whatever its name), at most 2 MB. It is kept as a 256 px square cropped at its centre, and replaces the previous one.',
        response: { 200: ProfileSchema, ...errorResponses(401, 413, 415) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const profile = await setAvatar(db, storage, user.id, await readAvatar(request));
      changed(user.id);
      return profile;
    },
  );

  api.delete(
    '/api/profile/avatar',
    {
      preHandler: requireUser,
      schema: {
        summary: 'Remove your avatar',
        description: 'Your page shows your initial again.',
        response: { 200: ProfileSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const profile = await removeAvatar(db, storage, user.id);
      changed(user.id);
      return profile;
    },
  );

  app.route<{ Params: { '*': string }; Querystring: { v?: unknown } }>({
    method: ['GET', 'HEAD'],
    url: '/media/avatars/*',
    exposeHeadRoute: false,
    schema: {
      summary: 'An avatar',
      description:
        "A capper's avatar: public, with validators (ETag: 304); ?v= naming its current version makes it cacheable for a year. With a CDN configured (S3_PUBLIC_URL), a GET answers 302 to its URL there.",
      response: {
        200: { description: 'The picture.', ...MEDIA_FILE_CONTENT },
        206: { description: 'The byte range asked for (Range).', ...MEDIA_FILE_CONTENT },
        302: NoBodySchema.describe('Served by the CDN (S3_PUBLIC_URL): Location is its URL there.'),
        304: NoBodySchema,
        ...errorResponses(404, 416),
      },
    },
    handler: async (request, reply) => {
      const key = `avatars/${request.params['*']}`;
      const object = AVATAR_KEY.test(key) ? await findMediaFile(storage, key) : null;
      if (!object) throw notFound('Media file not found.');
      const publicUrl = request.method === 'GET' ? storage.publicUrl(key) : null;
      if (publicUrl) return redirectToPublicUrl(request, reply, publicUrl, object);
      return sendMediaFile(request, reply, storage, { key, object, downloadName: null });
    },
  });
}
