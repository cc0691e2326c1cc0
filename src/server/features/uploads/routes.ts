// POST /api/videos (multipart, spec 7), POST /api/videos/{id}/retry, and the tus endpoint /api/uploads.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline as pipe, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STANDARD_UPLOAD_MAX_BYTES } from '#common/constants.js';
import {
  FILE_AND_URL_MESSAGE,
  FILE_OR_URL_REQUIRED_MESSAGE,
  UPLOAD_FILE_FIELD,
  UPLOAD_TOO_LARGE_MESSAGE,
  UploadFormDataSchema,
  type UploadMetadata,
} from '#common/schemas/uploads.js';
import { VideoIdParamsSchema } from '#common/schemas/ids.js';
import { VideoSchema } from '#common/schemas/videos.js';
import { hasNulCharacter, NUL_CHARACTER_MESSAGE } from '#common/schemas/text.js';
import type { Database, Db } from '#server/db/client.js';
import { badRequest, HttpError } from '#server/lib/http-errors.js';
import { MOV_SIGNATURE_BYTES } from '#server/media/mov-signature.js';
import type { S3Settings } from '#server/media/s3-storage.js';
import type { MediaStorage } from '#server/media/storage.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { currentUser, requireUser } from '../auth/index.js';
import { getVisibleVideo, toPublicVideo, viewerOf } from '../videos/index.js';
import { registerTus } from './tus.js';
import {
  createExternalVideo,
  createUploadedVideo,
  discardSource,
  INCOMING_PREFIX,
  parseMetadata,
  retryVideo,
  type UploadEffects,
  type UploadSource,
} from './uploads-service.js';

export interface UploadRoutesOptions {
  db: Db;
  database: Database;
  storage: MediaStorage;
  /** DATA_DIR/uploads: files being received (tus and multipart), on the media's file system. */
  uploadsDir: string;
  /** The bucket, when media lives in one: uploads are received into it too (docs/decisions/022). */
  s3: S3Settings | undefined;
  onJobQueued: () => void;
  /** The upload sweep, filled in by the tus endpoint (plugin.ts exposes it as app.sweepUploads). */
  sweep: { run: () => Promise<void> };
}

const tooLarge = () => new HttpError(413, UPLOAD_TOO_LARGE_MESSAGE);

interface ReceivedFile {
  source: UploadSource;
  name: string;
  head: Buffer;
}

export async function uploadRoutes(app: FastifyInstance, options: UploadRoutesOptions) {
  const { db, storage } = options;
  const effects: UploadEffects = options;
  // Every upload route, tus's included, is for the signed-in user (401 otherwise): one hook for them all.
  app.addHook('preHandler', requireUser);
  tagRoutes(app, 'Uploads');
  const incomingDir = path.join(options.uploadsDir, 'incoming');
  await mkdir(incomingDir, { recursive: true });

  await app.register(multipart, {
    limits: {
      fileSize: STANDARD_UPLOAD_MAX_BYTES,
      files: 1,
      fields: 20,
      fieldSize: 64 * 1024,
      parts: 24,
      headerPairs: 200,
    },
  });

  /**
   * Streams the file part to disk, or into the bucket when media lives in one (never into memory, nor on
   * this instance's disk), keeping its first bytes for the MOV check.
   */
  async function receiveFile(part: {
    file: NodeJS.ReadableStream & { truncated?: boolean };
    filename: string;
  }) {
    const name = `${randomBytes(16).toString('hex')}.part`;
    const file: ReceivedFile = {
      source:
        storage.kind === 's3' ? { key: `${INCOMING_PREFIX}${name}` } : { file: path.join(incomingDir, name) },
      name: part.filename || 'video.mov',
      head: Buffer.alloc(0),
    };
    const sniff = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        if (file.head.length < MOV_SIGNATURE_BYTES) {
          file.head = Buffer.concat([file.head, chunk.subarray(0, MOV_SIGNATURE_BYTES - file.head.length)]);
        }
        callback(null, chunk);
      },
    });
    try {
      if ('key' in file.source)
        await storage.putStream(
          file.source.key,
          pipe(part.file, sniff, () => {}),
        );
      else
        await pipeline(part.file, sniff, createWriteStream(file.source.file, { highWaterMark: 1024 * 1024 }));
    } catch (error) {
      await discardSource(storage, file.source);
      throw error;
    }
    if (part.file.truncated) {
      await discardSource(storage, file.source);
      throw tooLarge();
    }
    return file;
  }

  async function readForm(request: FastifyRequest) {
    const fields: Record<string, string> = {};
    let file: ReceivedFile | null = null;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== UPLOAD_FILE_FIELD) {
            part.file.resume(); // an unknown file field is read and dropped
            continue;
          }
          file = await receiveFile(part);
        } else {
          fields[part.fieldname] = String(part.value);
        }
      }
    } catch (error) {
      if (file) await discardSource(storage, file.source);
      const code = (error as { code?: string }).code;
      if (error instanceof HttpError) throw error;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      if (code === 'FST_FILES_LIMIT') throw badRequest('Send one video file.');
      if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
        throw badRequest('Too many form fields.');
      throw error;
    }
    return { fields, file };
  }

  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/videos',
    {
      config: { multipartBody: UploadFormDataSchema },
      schema: {
        summary: 'Upload a video (up to 50 MB) or add a link',
        description:
          'multipart/form-data (spec 7): the details as text fields, then the MOV file in `video`, or isExternalVideo `true` and externalVideoUrl (YouTube, Vimeo, Instagram, X, TikTok, Rumble, BitChute). An uploaded file is processed in the background (transcodingStatus).',
        response: { 201: VideoSchema, ...errorResponses(401, 413, 415, 503) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      if (!request.isMultipart()) throw badRequest('Send the upload as multipart/form-data.');
      const { fields, file } = await readForm(request);
      let meta: UploadMetadata;
      try {
        meta = parseMetadata(fields);
        if (file && hasNulCharacter(file.name)) throw badRequest(NUL_CHARACTER_MESSAGE);
        if (meta.isExternalVideo && file) throw badRequest(FILE_AND_URL_MESSAGE);
        if (!meta.isExternalVideo && !file) throw badRequest(FILE_OR_URL_REQUIRED_MESSAGE);
      } catch (error) {
        if (file) await discardSource(storage, file.source);
        throw error;
      }
      const video = file
        ? await createUploadedVideo(effects, {
            user,
            meta,
            source: file.source,
            head: file.head,
            fileName: file.name,
          })
        : await createExternalVideo(effects, user, meta);
      const viewer = viewerOf(user);
      return reply.code(201).send(toPublicVideo(await getVisibleVideo(db, video.id, viewer), viewer));
    },
  );

  api.post(
    '/api/videos/:id/retry',
    {
      schema: {
        summary: 'Process a failed upload again',
        description: 'The owner, for a file whose processing failed (409 otherwise).',
        params: VideoIdParamsSchema,
        response: { 200: VideoSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return toPublicVideo(await retryVideo(effects, request.params.id, user), viewerOf(user));
    },
  );

  await registerTus(app, { ...options, effects });
}
