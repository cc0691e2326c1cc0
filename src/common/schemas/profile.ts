// A capper's own profile settings: display name, bio and avatar. The settings form and the server check
// the same rules with the same messages.
import { z } from 'zod';

export const DISPLAY_NAME_MAX_LENGTH = 40;
export const BIO_MAX_LENGTH = 500;
/** Avatars: PNG, JPEG or WebP, recognised by their first bytes, at most 2 MB as sent. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
/** The side of the square avatar the server keeps. */
export const AVATAR_SIZE = 256;
/** The multipart field that carries the picture. */
export const AVATAR_FILE_FIELD = 'avatar';
export const AVATAR_ACCEPT = 'image/png,image/jpeg,image/webp';

export const DISPLAY_NAME_TOO_LONG = `Display name must be at most ${DISPLAY_NAME_MAX_LENGTH} characters.`;
export const DISPLAY_NAME_ONE_LINE = 'Display name must be on one line.';
export const BIO_TOO_LONG = `Bio must be at most ${BIO_MAX_LENGTH} characters.`;
export const AVATAR_TOO_LARGE = 'The picture is larger than 2 MB. Please choose a smaller one.';
export const AVATAR_FORMAT = 'Please choose a PNG, JPEG or WebP picture.';
export const AVATAR_UNREADABLE =
  'This picture could not be read. Please choose another PNG, JPEG or WebP file.';
export const AVATAR_MISSING = 'Please choose a picture to upload.';

/** Blank means "none": the field is cleared, not kept as spaces. */
const optionalText = (max: number, tooLong: string) =>
  z
    .string({ error: 'Please enter text.' })
    .trim()
    .max(max, tooLong)
    .nullable()
    .optional()
    .transform((value) => (value ? value : null));

export const ProfileUpdateSchema = z
  .object({
    displayName: optionalText(DISPLAY_NAME_MAX_LENGTH, DISPLAY_NAME_TOO_LONG)
      .refine((value) => value === null || !/[\r\n]/.test(value), DISPLAY_NAME_ONE_LINE)
      .meta({
        description: `1–${DISPLAY_NAME_MAX_LENGTH} characters after trimming; blank or null clears it`,
      }),
    bio: optionalText(BIO_MAX_LENGTH, BIO_TOO_LONG).meta({
      description: `At most ${BIO_MAX_LENGTH} characters after trimming; blank or null clears it`,
    }),
  })
  .meta({ id: 'ProfileUpdate' });
export type ProfileUpdateInput = z.input<typeof ProfileUpdateSchema>;
export type ProfileUpdate = z.output<typeof ProfileUpdateSchema>;

export const ProfileSchema = z
  .object({
    username: z.string(),
    displayName: z.string().nullable(),
    bio: z.string().nullable(),
    avatarUrl: z.string().nullable().meta({ description: 'The avatar as served, or null for the initial' }),
    email: z.string().nullable().meta({ description: 'The e-mail address on the account (never public)' }),
    emailConfirmed: z.boolean().meta({ description: 'Whether `email` was confirmed through its link' }),
    pendingEmail: z.string().nullable().meta({
      description:
        'An address a confirmation mail was sent to and not yet confirmed: a new one, or `email` itself',
    }),
  })
  .meta({ id: 'Profile', description: "The signed-in user's public profile: shown on /cappers/{username}" });
export type Profile = z.infer<typeof ProfileSchema>;

export const AvatarFormDataSchema = z.object({
  [AVATAR_FILE_FIELD]: z.unknown().meta({
    type: 'string',
    format: 'binary',
    description:
      'A PNG, JPEG or WebP picture of at most 2 MB: kept as a 256 px square, cropped at its centre',
  }),
});

export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_INVALID = 'Please enter a valid email address.';
export const EMAIL_TOO_LONG = `Email must be at most ${EMAIL_MAX_LENGTH} characters.`;
export const CONFIRMATION_MAILS_LIMITED = 'Too many confirmation e-mails; try again later.';
export const CONFIRMATION_LINK_INVALID =
  'This confirmation link is not valid. Ask for a new one on your profile settings.';
export const CONFIRMATION_LINK_EXPIRED =
  'This confirmation link has expired (links last 24 hours). Ask for a new one on your profile settings.';
export const CONFIRMATION_LINK_STALE =
  'This confirmation link is for an address no longer on your account. Use the latest link we sent.';
/** Why a confirmation link did not work, as the page a browser is sent to says it. */
export const CONFIRMATION_PROBLEMS = {
  invalid: CONFIRMATION_LINK_INVALID,
  expired: CONFIRMATION_LINK_EXPIRED,
  stale: CONFIRMATION_LINK_STALE,
} as const;
export type ConfirmationProblem = keyof typeof CONFIRMATION_PROBLEMS;
/** A browser that followed a bad link lands on this page (with ?problem=), not on JSON. */
export const EMAIL_CONFIRMATION_PAGE = '/email-confirmation';
/** Where a followed confirmation link lands (the profile settings show it as confirmed). */
export const EMAIL_CONFIRMED_PATH = '/settings/profile?email=confirmed';

export const EmailUpdateSchema = z
  .object({
    email: z
      .string({ error: EMAIL_INVALID })
      .trim()
      .max(EMAIL_MAX_LENGTH, EMAIL_TOO_LONG)
      .pipe(z.email({ error: EMAIL_INVALID }))
      .meta({ description: 'One address; a confirmation link is sent to it' }),
  })
  .meta({ id: 'EmailUpdate' });
export type EmailUpdate = z.infer<typeof EmailUpdateSchema>;

export const EmailConfirmQuerySchema = z.object({
  token: z.string({ error: CONFIRMATION_LINK_INVALID }).max(1000, CONFIRMATION_LINK_INVALID),
});
