// Uploads (spec 5 'Upload form', spec 7 POST /api/videos, spec 8 'Upload'): the form's rules and the
// request's, with their messages, once for the client and the server.
import { z } from 'zod';
import { MAX_UPLOAD_BYTES } from '../constants.js';
import { pickGiveaway } from '../pick-giveaway.js';
import { validateExternalVideoUrl } from '../video-links.js';
import { VideoDetailsSchema } from './videos.js';
import {
  LegInputSchema,
  LegsTextSchema,
  legsStartInFuture,
  MAX_LEGS,
  parlayProblem,
  START_IN_FUTURE_MESSAGE,
  TOO_MANY_LEGS_MESSAGE,
  type Leg,
} from './picks.js';

export const UPLOAD_TOO_LARGE_MESSAGE =
  'File size too large. Please use the chunked upload option for files larger than 50MB.';
export const UPLOAD_FORMAT_MESSAGE =
  'Invalid file format. Please upload a supported video format (MOV, WebM, etc.).';
export const ONLY_MOV_MESSAGE = 'Only MOV video files are accepted';
export const FILE_TOO_LARGE_MESSAGE = 'File too large';
export const FILE_OR_URL_REQUIRED_MESSAGE = 'Either a video file or external URL is required';
export const FILE_AND_URL_MESSAGE = 'Send either a video file or an external URL, not both';

/** The field that carries the file in the multipart form (docs/product-decisions.md 'Media'). */
export const UPLOAD_FILE_FIELD = 'video';
/** Longest video we accept a duration for: a day. */
const MAX_DURATION_SECONDS = 24 * 60 * 60;

/** Multipart and tus metadata carry text: 'true' / 'false' (spec 7). */
const BooleanText = z
  .union([z.boolean(), z.enum(['true', 'false'])], { error: 'Must be true or false' })
  .transform((value) => value === true || value === 'true');

const DurationSchema = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  z.coerce
    .number({ error: 'Duration must be a number of seconds' })
    .min(0, 'Duration must be a number of seconds')
    .max(MAX_DURATION_SECONDS, 'Duration is too long')
    .transform((value) => Math.round(value))
    .optional(),
);

/**
 * The upload's text fields, as the multipart form and the tus metadata send them. `userId` may be sent
 * (spec 7) but is never read: the owner is the signed-in user.
 */
const UploadFieldsSchema = VideoDetailsSchema.extend({
  duration: DurationSchema,
  isPremium: BooleanText.optional(),
  isExternalVideo: BooleanText.default(false),
  externalVideoUrl: z.string().trim().optional(),
  // The pick's legs as JSON text (none: an unverified pick), and whether it is a parlay.
  legs: LegsTextSchema.pipe(z.array(LegInputSchema).max(MAX_LEGS, TOO_MANY_LEGS_MESSAGE)),
  parlay: BooleanText.default(false),
});
/** A pick's title and description must not give its legs away (docs/decisions/028); no legs, nothing to give. */
function checkGiveaway(
  value: { title: string; description: string; legs: readonly Leg[] },
  ctx: z.RefinementCtx,
): void {
  const giveaway = pickGiveaway(value, value.legs);
  if (giveaway) ctx.addIssue({ code: 'custom', path: [giveaway.field], message: giveaway.message });
}

export const UploadMetadataSchema = UploadFieldsSchema.superRefine((value, ctx) => {
  const parlay = parlayProblem(value);
  if (parlay) ctx.addIssue({ code: 'custom', path: ['legs'], message: parlay });
  checkGiveaway(value, ctx);
  if (!value.isExternalVideo) return;
  const result = validateExternalVideoUrl(value.externalVideoUrl ?? '');
  if (!result.ok) ctx.addIssue({ code: 'custom', path: ['externalVideoUrl'], message: result.message });
});
export type UploadMetadata = z.infer<typeof UploadMetadataSchema>;

/** POST /api/videos's multipart form as the API document shows it; the route reads the parts itself. */
export const UploadFormDataSchema = UploadFieldsSchema.extend({
  userId: z
    .string()
    .optional()
    .meta({ description: 'Sent by the client (spec 7), never read: the owner is the signed-in user.' }),
  [UPLOAD_FILE_FIELD]: z.unknown().optional().meta({
    type: 'string',
    format: 'binary',
    description:
      'The MOV file, at most 50 MB (larger ones go over tus). Either this or isExternalVideo true and externalVideoUrl.',
  }),
});

/** What the form knows of a picked file (a File in the browser). */
export interface PickedFile {
  name: string;
  size: number;
  type: string;
}

const MOV_TYPES = new Set(['video/quicktime', 'video/x-quicktime', 'video/mov']);

/** spec 5: type quicktime, x-quicktime, mov, or a .mov extension. The server checks the bytes as well. */
export function looksLikeMov(file: PickedFile): boolean {
  return MOV_TYPES.has(file.type.toLowerCase()) || /\.mov$/i.test(file.name);
}

const PickedFileSchema = z.custom<PickedFile>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PickedFile).name === 'string' &&
    typeof (value as PickedFile).size === 'number',
  { message: ONLY_MOV_MESSAGE },
);

/** The legs as the upload and edit forms hold them (each already checked by the leg form). */
export const FormLegsSchema = z.array(LegInputSchema).max(MAX_LEGS, TOO_MANY_LEGS_MESSAGE);

/** The pick-wide rules the server applies at posting: a parlay's legs and stake, every leg still to start. */
export function pickLegsProblem(
  pick: { legs: readonly Leg[]; parlay: boolean },
  now = new Date(),
): string | null {
  return parlayProblem(pick) ?? (legsStartInFuture(pick.legs, now) ? null : START_IN_FUTURE_MESSAGE);
}

/** The upload form (spec 5 'Upload form'). */
export const UploadFormSchema = VideoDetailsSchema.extend({
  // spec 5: the price input is whole dollars, minimum 1; the schema underneath still allows $0.99.
  price: VideoDetailsSchema.shape.price.refine((value) => Number.isInteger(value), {
    message: 'Price must be a whole dollar amount (minimum $1)',
  }),
  videoFile: PickedFileSchema.optional(),
  externalVideoUrl: z.string().trim(),
  legs: FormLegsSchema.default([]),
  parlay: z.boolean().default(false),
}).superRefine((value, ctx) => {
  const legs = pickLegsProblem(value);
  if (legs) ctx.addIssue({ code: 'custom', path: ['legs'], message: legs });
  checkGiveaway(value, ctx);
  const file = value.videoFile;
  if (file) {
    if (!looksLikeMov(file)) ctx.addIssue({ code: 'custom', path: ['videoFile'], message: ONLY_MOV_MESSAGE });
    else if (file.size > MAX_UPLOAD_BYTES)
      ctx.addIssue({ code: 'custom', path: ['videoFile'], message: FILE_TOO_LARGE_MESSAGE });
    return;
  }
  if (!value.externalVideoUrl) {
    ctx.addIssue({ code: 'custom', path: ['videoFile'], message: FILE_OR_URL_REQUIRED_MESSAGE });
    return;
  }
  const result = validateExternalVideoUrl(value.externalVideoUrl);
  if (!result.ok) ctx.addIssue({ code: 'custom', path: ['externalVideoUrl'], message: result.message });
});
export type UploadFormInput = z.input<typeof UploadFormSchema>;
export type UploadForm = z.output<typeof UploadFormSchema>;

/** What a finished tus upload answers, and GET /api/uploads/{id}/video (spec 7: "success and videoId"). */
export const UploadResultSchema = z
  .object({ success: z.literal(true), videoId: z.int() })
  .meta({ id: 'UploadResult' });
export type UploadResult = z.infer<typeof UploadResultSchema>;
