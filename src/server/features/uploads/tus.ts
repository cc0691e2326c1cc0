// Resumable uploads over tus at /api/uploads (docs/product-decisions.md 'Media', docs/decisions/007): files above
// 50 MB, sent in 2 MB chunks, resumable after a dropped connection, a reload or a server restart. Here the
// parts meet: the store (tus-store.ts), @tus/server (tus-server.ts), our own PATCH and DELETE
// (tus-handlers.ts), finishing an upload once (tus-finish.ts) and the sweep (upload-sweeps.ts).
import type { FastifyInstance } from 'fastify';
import { UploadResultSchema, type UploadResult } from '#common/schemas/uploads.js';
import type { Database, Db } from '#server/db/client.js';
import { openSharedLocks } from '#server/db/shared-locks.js';
import { notFound } from '#server/lib/http-errors.js';
import { errorResponses } from '#server/plugins/api-contract.js';
import type { S3Settings } from '#server/media/s3-storage.js';
import type { MediaStorage } from '#server/media/storage.js';
import { currentUser } from '../auth/index.js';
import type { UploadEffects } from './uploads-service.js';
import { uploadFinisher } from './tus-finish.js';
import { replyBusy, tusHandlers } from './tus-handlers.js';
import { createTusServer, TUS_PATH } from './tus-server.js';
import { isUploadId, openTusStore } from './tus-store.js';
import { scheduleUploadSweeps } from './upload-sweeps.js';

/** First key of the uploads' advisory locks ('tus' in ASCII; uploads-repository.ts's reservations use 'upl'). */
const UPLOAD_LOCKS = 0x747573;
/** How long GET …/video waits for a PATCH finishing the upload elsewhere before answering 423. */
const FINISH_WAIT_MS = 30_000;

export { TOO_MANY_BYTES_MESSAGE, TOO_MANY_UPLOADS_MESSAGE } from './tus-server.js';

export interface TusOptions {
  db: Db;
  database: Database;
  storage: MediaStorage;
  uploadsDir: string;
  /** The bucket, when media lives in one: tus keeps its uploads there too. */
  s3: S3Settings | undefined;
  effects: UploadEffects;
  /** Filled in here: runs the upload sweep now (after the one under way, if any); tests await it. */
  sweep: { run: () => Promise<void> };
}

export async function registerTus(app: FastifyInstance, options: TusOptions): Promise<void> {
  const { db, storage, effects } = options;
  const store = await openTusStore(options);
  const finish = uploadFinisher({ db, effects, store, log: app.log });
  const { handOver } = createTusServer({ db, store, finish, log: app.log });
  // One writer per upload, whichever instance a chunk reaches (docs/decisions/024).
  const locks = openSharedLocks(options.database, UPLOAD_LOCKS);
  app.addHook('onClose', () => locks.close());
  const { checkUpload, patch, terminate, releaseLease } = tusHandlers({ db, storage, store, finish, locks });

  // Signed-in only, like every upload route: uploadRoutes' preHandler hook (requireUser) covers this scope.
  await app.register(async (scope) => {
    // tus bodies are raw bytes for tus to stream to disk: Fastify must not read them.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    // A lock taken by checkUpload is given back before the answer leaves (a client retrying at once must
    // not find its own finished PATCH still holding it), and in any case once the request is over.
    scope.addHook('onSend', async (request, _reply, payload) => {
      await releaseLease(request);
      return payload;
    });
    scope.addHook('onResponse', async (request) => releaseLease(request));
    scope.route({ method: ['POST'], url: TUS_PATH, handler: handOver });
    scope.route<{ Params: { id: string } }>({
      method: 'PATCH',
      url: `${TUS_PATH}/:id`,
      preHandler: checkUpload,
      handler: patch,
    });
    scope.route<{ Params: { id: string } }>({
      method: 'HEAD',
      url: `${TUS_PATH}/:id`,
      preHandler: checkUpload,
      handler: handOver,
    });
    scope.route<{ Params: { id: string } }>({
      method: 'DELETE',
      url: `${TUS_PATH}/:id`,
      preHandler: checkUpload,
      handler: terminate,
    });
    scope.get<{ Params: { id: string } }>(
      `${TUS_PATH}/:id/video`,
      {
        schema: {
          summary: 'The video a finished resumable upload became',
          description:
            "For a client whose last PATCH's answer was lost: finishes the upload if that had not happened yet.",
          response: { 200: UploadResultSchema, ...errorResponses(401, 404, 409, 415, 423) },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        if (!isUploadId(id)) throw notFound('Upload not found.');
        // The last PATCH may be finishing it on another instance: wait for its lock, then find its video.
        const lease = await locks.lock(id, { timeoutMs: FINISH_WAIT_MS });
        if (!lease) return replyBusy(reply);
        try {
          const result: UploadResult = { success: true, videoId: await finish(id, currentUser(request)) };
          return result;
        } finally {
          await lease.release();
        }
      },
    );
  });

  scheduleUploadSweeps(app, {
    db,
    datastore: store.datastore,
    storage,
    uploadsDir: options.uploadsDir,
    sweep: options.sweep,
  });
}
