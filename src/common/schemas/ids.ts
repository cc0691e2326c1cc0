// Ids and page numbers in paths and query strings: decimal digits only (issue 11). `Number()` and
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
    .refine((value) => value >= 1 && value <= ID_MAX, message);
}

/** `{ id }` route params: the one schema every route with an id in its path uses. */
export function idParams(message = 'Id must be a whole number') {
  return z.object({ id: idSchema(message) });
}
export const IdParamsSchema = idParams();

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
    .default(options.default);
}
