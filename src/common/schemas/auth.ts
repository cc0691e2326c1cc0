import { z } from 'zod';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PHONE_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from '../constants.js';

// Messages of spec section 5 live here, once: the forms and the server both use these schemas.

/** Registration refusals only the server can decide (it knows the taken names); the form shows them. */
export const USERNAME_TAKEN = 'Username already exists';
// A look-alike of a taken name (TR39 confusable skeleton) is refused too.
export const USERNAME_TOO_SIMILAR = 'This username is too similar to an existing one. Please choose another.';

const username = z
  .string({ error: 'Username is required.' })
  .trim()
  .min(USERNAME_MIN_LENGTH, 'Username must be at least 3 characters.')
  .max(USERNAME_MAX_LENGTH, `Username must be at most ${USERNAME_MAX_LENGTH} characters.`)
  .regex(/^[\p{L}\p{N}_.-]+$/u, 'Username may only contain letters, digits, dots, dashes and underscores.');

const password = z
  .string({ error: 'Password is required.' })
  .min(PASSWORD_MIN_LENGTH, 'Password must be at least 6 characters.')
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`);

/** Empty strings from the form mean "not given". */
function optionalText(max: number, tooLong: string) {
  return z
    .string()
    .trim()
    .max(max, tooLong)
    .optional()
    .nullable()
    .transform((value) => (value ? value : undefined));
}

export const LoginSchema = z.object({
  username,
  password,
});
export type Login = z.infer<typeof LoginSchema>;

export const RegisterSchema = z.object({
  username,
  password,
  phoneNumber: z
    .string()
    .trim()
    .max(30, 'Phone number must be at most 30 characters.')
    .optional()
    .nullable()
    .transform((value) => (value ? value : undefined))
    .refine((value) => value === undefined || value.length >= PHONE_MIN_LENGTH, {
      message: 'Phone number must be at least 10 digits.',
    }),
  email: optionalText(254, 'Email must be at most 254 characters.').refine(
    (value) => value === undefined || z.email().safeParse(value).success,
    { message: 'Please enter a valid email address.' },
  ),
  displayName: optionalText(100, 'Display name must be at most 100 characters.'),
  bio: optionalText(1000, 'Bio must be at most 1000 characters.'),
  avatarUrl: optionalText(2048, 'Avatar URL must be at most 2048 characters.').refine(
    (value) => value === undefined || /^https?:\/\//i.test(value),
    { message: 'Avatar URL must start with http:// or https://' },
  ),
});
export type RegisterInput = z.input<typeof RegisterSchema>;
export type Register = z.infer<typeof RegisterSchema>;

/** The signed-in user as the API returns it: never a password or hash. */
export const UserSchema = z
  .object({
    id: z.int(),
    username: z.string(),
    displayName: z.string().nullable(),
    email: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    bio: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    isAdmin: z.boolean(),
    /** The bonus an admin granted, in dollars. */
    manualEarnings: z.number(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'User', description: 'The signed-in user: never a password or its hash.' });
export type User = z.infer<typeof UserSchema>;

/** GET /api/session: who is signed in, `null` for a visitor (an answer, not a 401). */
export const SessionSchema = z.object({ user: UserSchema.nullable() }).meta({ id: 'Session' });
export type Session = z.infer<typeof SessionSchema>;
