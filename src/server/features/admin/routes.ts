import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AuditLogQuerySchema, ManualEarningsSchema } from '../../../common/schemas/admin.js';
import { idSchema, queryInt } from '../../../common/schemas/ids.js';
import type { Db } from '../../db/client.js';
import type { MediaStorage } from '../../media/storage.js';
import { currentUser, requireAdmin } from '../auth/session.js';
import type { CatalogCache } from '../videos/catalog-cache.js';
import { toPublicVideo, viewerOf } from '../videos/videos-service.js';
import { listAllVideos } from '../videos/videos-repository.js';
import { listUsers } from './admin-repository.js';
import {
  adminDeleteUser,
  adminDeleteVideo,
  adminSetManualEarnings,
  getAuditLog,
  toAdminUser,
} from './admin-service.js';

const Id = idSchema('Id must be a whole number');
const PageQuery = z.object({
  limit: queryInt({ name: 'Limit', min: 1, max: 500, default: 500 }),
  offset: queryInt({ name: 'Offset', min: 0, max: 1_000_000, default: 0 }),
});

/** Every route here answers 401 to a visitor and 403 to a non-admin (spec 6, enforced on the server). */
export async function adminRoutes(
  app: FastifyInstance,
  options: { db: Db; storage: MediaStorage; catalog: CatalogCache },
) {
  const { db, storage, catalog } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('preHandler', requireAdmin);

  api.get('/api/admin/users', { schema: { querystring: PageQuery } }, async (request) => {
    const rows = await listUsers(db, request.query);
    return rows.map(toAdminUser);
  });

  api.get('/api/admin/videos', { schema: { querystring: PageQuery } }, async (request) => {
    const viewer = viewerOf(currentUser(request));
    const rows = await listAllVideos(db, request.query, viewer!.id);
    return rows.map((row) => toPublicVideo(row, viewer));
  });

  api.delete('/api/admin/videos/:id', { schema: { params: z.object({ id: Id }) } }, async (request) => {
    await adminDeleteVideo(db, storage, currentUser(request).id, request.params.id);
    catalog.clear();
    return { message: 'Video deleted' };
  });

  api.delete('/api/admin/users/:id', { schema: { params: z.object({ id: Id }) } }, async (request) => {
    await adminDeleteUser(db, storage, currentUser(request).id, request.params.id);
    app.sessions.invalidateUser(request.params.id);
    catalog.clear();
    return { message: 'User deleted' };
  });

  // issue 11: who did what to which money, the automatic refunds included (decision 010).
  api.get('/api/admin/audit-log', { schema: { querystring: AuditLogQuerySchema } }, async (request) =>
    getAuditLog(db, request.query),
  );

  api.patch(
    '/api/admin/users/:userId/earnings',
    { schema: { params: z.object({ userId: Id }), body: ManualEarningsSchema } },
    async (request) => {
      const user = await adminSetManualEarnings(
        db,
        currentUser(request).id,
        request.params.userId,
        request.body.manualEarnings,
      );
      app.sessions.invalidateUser(request.params.userId);
      return user;
    },
  );
}
