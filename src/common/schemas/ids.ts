// Ids in paths and page bounds in query strings, declared once. Ids and page numbers: decimal digits only. `Number()` and
// `z.coerce.number()` also read '0x10' as 16, '1e3' as 1000, ' 12', '+12' and '12.0' as 12, so a
// caller could reach another row than the one they wrote.
import { z } from 'zod';

/** Ids are PostgreSQL `serial`s: 1 to 2^31 - 1. */
export const ID_MAX = 2_147_483_647;
const DIGITS = /^[0-9]{1,10}$/;

/** A positive id written in decimal digits, else the message (a 400). */
export function idSchema(message = 'Id must be a whole number') {
  return z
    .string({ error: message })
    .regex(DIGITS, message)
    .transform(Number)
    .refine((value) => value >= 1 && value <= ID_MAX, message)
    .meta({ description: `A whole number from 1 to ${ID_MAX}, in decimal digits.` });
}

/** `{ id }` route params, with the message naming what the id is of. */
function idParams(message: string) {
  return z.object({ id: idSchema(message) });
}

// The path ids, declared once each; every route with an id in its path uses one of these.
export const IdParamsSchema = idParams('Id must be a whole number');
export const VideoIdParamsSchema = idParams('Video id must be a whole number');
export const PayoutIdParamsSchema = idParams('Payout id must be a whole number');
/** PATCH /api/admin/users/{userId}/earnings (spec 7 names it userId). */
export const UserIdParamsSchema = z.object({ userId: idSchema('Id must be a whole number') });

/**
 * A whole number in a query string (limit, offset), decimal digits only, between min and max. A number
 * is taken as is, so the client can build its query with the same schema.
 */
export function queryInt(options: { min: number; max: number; default: number; name: string }) {
  const message = `${options.name} must be a whole number from ${options.min} to ${options.max}`;
  return z
    .union([z.number({ error: message }), z.string({ error: message }).regex(/^[0-9]{1,10}$/, message)], {
      error: message,
    })
    .transform(Number)
    .refine((value) => Number.isInteger(value) && value >= options.min && value <= options.max, message)
    .default(options.default)
    .meta({
      description: `A whole number from ${options.min} to ${options.max}, in decimal digits; ${options.default} when left out.`,
    });
}

/** The furthest offset a list may be asked for, unless its page size says otherwise. */
export const OFFSET_MAX = 1_000_000;

/**
 * Page sizes, one place: `max` is the most one request may ask for, `default` what it gets when
 * it does not say. The dashboard and admin lists ask for one page of `default`.
 */
export const PAGE_LIMITS = {
  /** GET /api/videos: the catalog's pages of 24 (the client's page), deep pages from checkpoints. */
  catalog: { max: 60, default: 24, offsetMax: 100_000 },
  /** GET /api/user/videos: a capper's own videos. */
  ownVideos: { max: 100, default: 100, offsetMax: 100_000 },
  /** GET /api/admin/users, /api/admin/videos, /api/admin/payouts. */
  admin: { max: 500, default: 500, offsetMax: OFFSET_MAX },
  /** GET /api/user/purchases and /api/user/sales. */
  purchases: { max: 1000, default: 1000, offsetMax: OFFSET_MAX },
  /** GET /api/admin/audit-log: the tab's page. */
  auditLog: { max: 100, default: 25, offsetMax: OFFSET_MAX },
} as const;

export interface PageLimit {
  max: number;
  default: number;
  offsetMax: number;
}

/** `?limit=&offset=` of one list, within its limits. */
export function pageQuerySchema(limits: PageLimit) {
  return z.object({
    limit: queryInt({ name: 'Limit', min: 1, max: limits.max, default: limits.default }),
    offset: queryInt({ name: 'Offset', min: 0, max: limits.offsetMax, default: 0 }),
  });
}

export const CatalogPageQuerySchema = pageQuerySchema(PAGE_LIMITS.catalog);
export const OwnVideosQuerySchema = pageQuerySchema(PAGE_LIMITS.ownVideos);
export const AdminPageQuerySchema = pageQuerySchema(PAGE_LIMITS.admin);
export const PurchasesPageQuerySchema = pageQuerySchema(PAGE_LIMITS.purchases);
export const AuditLogQuerySchema = pageQuerySchema(PAGE_LIMITS.auditLog);
