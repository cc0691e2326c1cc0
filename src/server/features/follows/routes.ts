// Following cappers (docs/decisions/035): the follow button on a capper's page and the signed-in user's
// "Following" page.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CapperParamsSchema } from '#common/schemas/cappers.js';
import { FollowedUsernamesSchema, FollowingSchema, FollowStateSchema } from '#common/schemas/follows.js';
import type { Db } from '#server/db/client.js';
import { rateLimited } from '#server/lib/rate-limited.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { currentUser, requireUser } from '../auth/index.js';
import { viewerOf } from '../videos/index.js';
import { follow, followedUsernames, followState, following, unfollow } from './follows-service.js';

/** Follows and unfollows one user may send a minute: a button clicked, not a script walking the cappers. */
export const FOLLOWS_PER_MINUTE = 60;

export async function followRoutes(app: FastifyInstance, options: { db: Db }) {
  const { db } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  tagRoutes(app, 'Follows');

  const followsPerUser = app.createRateLimit({
    max: FOLLOWS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `follow:${request.user?.id ?? request.ip}`,
  });
  const followsLimit = rateLimited(followsPerUser, 'follows');
  const limitFollows = async (request: FastifyRequest) => {
    currentUser(request); // 401 first: a signed-out caller is not counted
    await followsLimit(request);
  };

  api.get(
    '/api/cappers/:username/follow',
    {
      schema: {
        summary: 'Whether you follow a capper, and their follower count',
        description: 'Public: signed out, `following` is false.',
        params: CapperParamsSchema,
        response: { 200: FollowStateSchema, ...errorResponses(404) },
      },
    },
    async (request) => followState(db, request.params.username, request.user?.id ?? null),
  );

  api.post(
    '/api/cappers/:username/follow',
    {
      preHandler: limitFollows,
      schema: {
        summary: 'Follow a capper',
        description: `Free. Following again changes nothing; you cannot follow yourself (400). You are alerted in the app when they post a pick. At most ${FOLLOWS_PER_MINUTE} follows and unfollows a minute.`,
        params: CapperParamsSchema,
        response: { 200: FollowStateSchema, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => follow(db, request.params.username, currentUser(request).id),
  );

  api.delete(
    '/api/cappers/:username/follow',
    {
      preHandler: limitFollows,
      schema: {
        summary: 'Stop following a capper',
        description: 'Unfollowing a capper you do not follow changes nothing.',
        params: CapperParamsSchema,
        response: { 200: FollowStateSchema, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => unfollow(db, request.params.username, currentUser(request).id),
  );

  api.get(
    '/api/following',
    {
      preHandler: requireUser,
      schema: {
        summary: 'The cappers you follow and their open picks',
        description:
          'Cappers most recently followed first; their picks still on sale, newest first, as GET /api/videos items.',
        response: { 200: FollowingSchema, ...errorResponses(401) },
      },
    },
    async (request) => following(db, viewerOf(currentUser(request))!),
  );

  api.get(
    '/api/following/cappers',
    {
      preHandler: requireUser,
      schema: {
        summary: 'The usernames of the cappers you follow',
        description:
          'For the follow buttons on cards: the most recently followed first, at most 1,000. GET /api/cappers/{username}/follow answers for any one capper.',
        response: { 200: FollowedUsernamesSchema, ...errorResponses(401) },
      },
    },
    async (request) => followedUsernames(db, currentUser(request).id),
  );
}
