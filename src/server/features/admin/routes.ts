import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MessageSchema } from '#common/schemas/api.js';
import { AdminUserSchema, AuditLogPageSchema, ManualEarningsSchema } from '#common/schemas/admin.js';
import { AdminPayoutSchema, PayoutDecisionSchema, PayoutSchema } from '#common/schemas/earnings.js';
import {
  AdminPageQuerySchema,
  AuditLogQuerySchema,
  IdParamsSchema,
  PayoutIdParamsSchema,
  UserIdParamsSchema,
} from '#common/schemas/ids.js';
import { VideoListSchema } from '#common/schemas/videos.js';
import type { Db } from '#server/db/client.js';
import { AdminMailPageSchema, AdminMailQuerySchema, type AdminMail } from '#common/schemas/mail.js';
import { listMails, type MailRow, type MailStatus } from '#server/mail/index.js';
import type { MediaStorage } from '#server/media/storage.js';
import { errorResponses, tagRoutes } from '#server/plugins/api-contract.js';
import { currentUser, requireAdmin } from '../auth/index.js';
import { listAllVideos, toPublicVideo, viewerOf } from '../videos/index.js';
import { listUsers } from './admin-repository.js';
import {
  adminDeleteUser,
  adminDeleteVideo,
  adminSetManualEarnings,
  decidePayout,
  getAuditLog,
  listPayouts,
  toAdminUser,
} from './admin-service.js';

function toAdminMail(row: MailRow): AdminMail {
  return {
    id: row.id,
    to: row.toAddress,
    kind: row.kind,
    subject: row.subject,
    status: row.status as MailStatus,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    text: row.textBody,
  };
}

/** 401 to a visitor, 403 to a non-admin: every route here. */
const ADMIN_ERRORS = errorResponses(401, 403);

/** Every route here answers 401 to a visitor and 403 to a non-admin (spec 6, enforced on the server). */
export async function adminRoutes(app: FastifyInstance, options: { db: Db; storage: MediaStorage }) {
  const { db, storage } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('preHandler', requireAdmin);
  tagRoutes(app, 'Admin');

  api.get(
    '/api/admin/users',
    {
      schema: {
        summary: 'Every user',
        querystring: AdminPageQuerySchema,
        response: { 200: AdminUserSchema.array(), ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const rows = await listUsers(db, request.query);
      return rows.map(toAdminUser);
    },
  );

  api.get(
    '/api/admin/videos',
    {
      schema: {
        summary: 'Every video, in any state',
        querystring: AdminPageQuerySchema,
        response: { 200: VideoListSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const viewer = viewerOf(currentUser(request));
      const rows = await listAllVideos(db, request.query, viewer!.id);
      return rows.map((row) => toPublicVideo(row, viewer));
    },
  );

  api.delete(
    '/api/admin/videos/:id',
    {
      schema: {
        summary: 'Delete a video',
        params: IdParamsSchema,
        response: { 200: MessageSchema, ...ADMIN_ERRORS, ...errorResponses(404) },
      },
    },
    async (request) => {
      await adminDeleteVideo(db, storage, currentUser(request).id, request.params.id, request.log);
      return { message: 'Video deleted' };
    },
  );

  api.delete(
    '/api/admin/users/:id',
    {
      schema: {
        summary: 'Delete a user with their videos, purchases and payout requests',
        description: 'Admin accounts cannot be deleted (403).',
        params: IdParamsSchema,
        response: { 200: MessageSchema, ...ADMIN_ERRORS, ...errorResponses(404) },
      },
    },
    async (request) => {
      await adminDeleteUser(db, storage, currentUser(request).id, request.params.id, request.log);
      app.sessions.invalidateUser(request.params.id);
      return { message: 'User deleted' };
    },
  );

  // Who did what to which money, the automatic refunds included (decision 010).
  api.get(
    '/api/admin/audit-log',
    {
      schema: {
        summary: 'The audit log, newest first',
        description: 'Every admin decision and every automatic refund.',
        querystring: AuditLogQuerySchema,
        response: { 200: AuditLogPageSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => getAuditLog(db, request.query),
  );

  api.get(
    '/api/admin/mail',
    {
      schema: {
        summary: 'The mail outbox, newest first',
        description:
          'Every mail sent or waiting, with its text. Without an SMTP server (SMTP_URL) mail stays here as `outbox`: an admin reads what would have been sent.',
        querystring: AdminMailQuerySchema,
        response: { 200: AdminMailPageSchema, ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const { before, limit } = request.query;
      // One more than the page: whether an older page exists, without a count.
      const rows = await listMails(db, { before, limit: limit + 1 });
      const page = rows.slice(0, limit);
      return {
        mails: page.map(toAdminMail),
        nextBefore: rows.length > limit ? page.at(-1)!.id : null,
      };
    },
  );

  api.patch(
    '/api/admin/users/:userId/earnings',
    {
      schema: {
        summary: "Set a user's bonus (manual earnings)",
        description: 'Not below what was already paid out or requested (400).',
        params: UserIdParamsSchema,
        body: ManualEarningsSchema,
        response: { 200: AdminUserSchema, ...ADMIN_ERRORS, ...errorResponses(404) },
      },
    },
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

  api.get(
    '/api/admin/payouts',
    {
      schema: {
        summary: 'Every payout request, with its capper',
        querystring: AdminPageQuerySchema,
        response: { 200: AdminPayoutSchema.array(), ...ADMIN_ERRORS },
      },
    },
    async (request) => listPayouts(db, request.query),
  );

  api.patch(
    '/api/admin/payouts/:id',
    {
      schema: {
        summary: 'Mark a payout request paid, or reject it',
        description:
          "Only a pending request (409 otherwise); not paid while the capper's balance is below zero (409).",
        params: PayoutIdParamsSchema,
        body: PayoutDecisionSchema,
        response: { 200: PayoutSchema, ...ADMIN_ERRORS, ...errorResponses(404, 409) },
      },
    },
    async (request) => decidePayout(db, currentUser(request).id, request.params.id, request.body.status),
  );
}
