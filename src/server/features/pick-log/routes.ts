// The public pick log's endpoints (docs/pick-log.md 'Endpoints').
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ConsistencyProofQuerySchema,
  ConsistencyProofSchema,
  InclusionProofQuerySchema,
  InclusionProofSchema,
  LogEntriesQuerySchema,
  LogEntriesSchema,
  LogPicksQuerySchema,
  LogPicksSchema,
  MAX_LOG_PICKS,
} from '#common/schemas/pick-log.js';
import { parseTileLevel, parseTileRefPath } from '#common/pick-log/tiles.js';
import type { Db } from '#server/db/client.js';
import { HttpError, notFound } from '#server/lib/http-errors.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import type { LogKey } from './log-key.js';
import { logPickTitles, type CheckpointRow } from './log-repository.js';
import {
  consistencyProof,
  entriesBetween,
  inclusionProof,
  NO_CHECKPOINT_MESSAGE,
  UpperNodes,
  type CheckpointCache,
} from './log-service.js';
import { entryBundleBytes, NO_SUCH_TILE_MESSAGE, tileBytes } from './tiles-service.js';

const TEXT = (description: string) => ({
  description,
  content: { 'text/plain': { schema: z.string() } },
});

export async function pickLogRoutes(
  app: FastifyInstance,
  options: {
    db: Db;
    key: LogKey;
    checkpoints: CheckpointCache;
    /** The note served for the latest signed checkpoint: with its witnesses' cosignatures (witnesses.ts). */
    servedNote: (latest: CheckpointRow) => Promise<string>;
  },
) {
  const { db, key, checkpoints, servedNote } = options;
  const upper = new UpperNodes();
  const api = app.withTypeProvider<ZodTypeProvider>();
  tagRoutes(app, 'Pick log');

  api.get(
    '/api/log/checkpoint',
    {
      schema: {
        summary: "The log's latest signed checkpoint",
        description:
          'A C2SP tlog-checkpoint (origin, tree size, base64 root) in a C2SP signed note, signed with Ed25519 by the key at /api/log/key, then the cosignature lines its witnesses answered (C2SP tlog-cosignature, cosignature/v1). With witnesses, the checkpoint is the latest they have been asked about (a moment behind the latest signed while they answer: rounds start half a second apart and wait up to two seconds).',
        response: { 200: TEXT('The signed note'), ...errorResponses(503) },
      },
    },
    async (_request, reply) => {
      const checkpoint = await checkpoints.get();
      if (!checkpoint) throw new HttpError(503, NO_CHECKPOINT_MESSAGE, { 'retry-after': '1' });
      return reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(await servedNote(checkpoint));
    },
  );

  api.get(
    '/api/log/key',
    {
      schema: {
        summary: "The log's verifier key",
        description:
          '`<origin>+<key id, 8 hex>+<base64(0x01 ‖ Ed25519 public key)>`, as C2SP signed-note verifier keys are written.',
        response: { 200: TEXT('The verifier key string') },
      },
    },
    async (_request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(`${key.verifierKey}\n`),
  );

  api.get(
    '/api/log/entries',
    {
      schema: {
        summary: 'Entries of the log',
        description:
          'The entries start ≤ i < end (at most 1,000: a longer range gets the first 1,000), each the base64 of its RFC 8785 bytes. end may not pass the latest checkpoint.',
        querystring: LogEntriesQuerySchema,
        response: { 200: LogEntriesSchema },
      },
    },
    async (request) => entriesBetween(db, checkpoints, request.query.start, request.query.end),
  );

  api.get(
    '/api/log/picks',
    {
      schema: {
        summary: 'The picks that log entries name: their titles',
        description: `For the /log page: each video id's pick title (null when removed by moderation or unknown) and whether the video is gone. Up to ${MAX_LOG_PICKS} ids, comma-separated.`,
        querystring: LogPicksQuerySchema,
        response: { 200: LogPicksSchema },
      },
    },
    async (request) => ({ picks: await logPickTitles(db, request.query.videoIds) }),
  );

  api.get(
    '/api/log/proof/inclusion',
    {
      schema: {
        summary: 'An inclusion proof (RFC 9162 §2.1.3)',
        description:
          'That the entry at index is in the tree of treeSize entries (no larger than the latest checkpoint).',
        querystring: InclusionProofQuerySchema,
        response: { 200: InclusionProofSchema },
      },
    },
    async (request) => inclusionProof(db, checkpoints, upper, request.query.index, request.query.treeSize),
  );

  // The same tree as C2SP tlog-tiles resources under the prefix /api/log (its checkpoint is the one above).
  const TILE_CONTENT = {
    content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } },
  };
  const immutable = (reply: FastifyReply) =>
    reply.type('application/octet-stream').header('cache-control', 'public, max-age=31536000, immutable');

  // Plain routes, as the media route: their answers are bytes, not a zod-typed body.
  app.get<{ Params: { '*': string } }>(
    '/api/log/tile/entries/*',
    {
      // Entries are JSON text: a bundle compresses several times over (tlog-tiles: SHOULD be compressed).
      config: { compressBody: true },
      schema: {
        summary: 'An entry bundle (C2SP tlog-tiles)',
        description:
          'path is `<N>` or `<N>.p/<W>` as tlog-tiles writes it (N in groups of three digits, `x` before all but the last: `x001/x234/067`): entries 256·N to 256·N+W−1 of the signed tree (W = 256 for a full bundle), each a big-endian uint16 length then its bytes. Immutable; 404 past the latest checkpoint.',
        response: { 200: { description: 'The bundle.', ...TILE_CONTENT }, ...errorResponses(404, 503) },
      },
    },
    async (request, reply) => {
      const ref = parseTileRefPath(request.params['*']);
      if (!ref) throw notFound(NO_SUCH_TILE_MESSAGE);
      return immutable(reply).send(Buffer.from(await entryBundleBytes(db, checkpoints, ref)));
    },
  );

  app.get<{ Params: { level: string; '*': string } }>(
    '/api/log/tile/:level/*',
    {
      schema: {
        summary: 'A tile of the tree (C2SP tlog-tiles)',
        description:
          'The hashes of the perfect subtrees of 256^level entries numbered 256·N to 256·N+W−1, 32 bytes each (level 0: the leaf hashes); path is `<N>` or `<N>.p/<W>` as for entry bundles. Immutable; 404 for a tile the latest signed tree does not hold.',
        params: z.looseObject({ level: z.string().describe('The tile level, 0 to 63.') }),
        response: { 200: { description: 'The tile.', ...TILE_CONTENT }, ...errorResponses(404, 503) },
      },
    },
    async (request, reply) => {
      const level = parseTileLevel(request.params.level);
      const ref = parseTileRefPath(request.params['*']);
      if (level === null || !ref) throw notFound(NO_SUCH_TILE_MESSAGE);
      return immutable(reply).send(Buffer.from(await tileBytes(db, checkpoints, level, ref)));
    },
  );

  api.get(
    '/api/log/proof/consistency',
    {
      schema: {
        summary: 'A consistency proof (RFC 9162 §2.1.4)',
        description:
          'That the tree of second entries extends the tree of first entries (second no larger than the latest checkpoint).',
        querystring: ConsistencyProofQuerySchema,
        response: { 200: ConsistencyProofSchema },
      },
    },
    async (request) => consistencyProof(db, checkpoints, upper, request.query.first, request.query.second),
  );
}
