import { z } from 'zod';
import { CATEGORIES } from '../constants.js';
import { CatalogPageQuerySchema, PAGE_LIMITS } from './ids.js';
import { LegInputSchema, MAX_LEGS, TOO_MANY_LEGS_MESSAGE } from './picks.js';

export const MIN_PRICE = 0.99;
export const MAX_PRICE = 10_000;
export const TITLE_MAX_LENGTH = 120;
export const DESCRIPTION_MAX_LENGTH = 5000;
export const SELECTIONS_MAX_LENGTH = 10_000;

/** Dollars with at most two decimals, at least $0.99 (spec 5 'Video creation'). */
export const PriceSchema = z.coerce
  .number({ error: 'Price must be a number' })
  .refine((value) => Number.isFinite(value), { message: 'Price must be a number' })
  .refine((value) => value >= MIN_PRICE, { message: 'Price must be at least $0.99' })
  .refine((value) => value <= MAX_PRICE, { message: 'Price must be at most $10,000' })
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
    message: 'Price can have at most two decimals',
  });

const TitleSchema = z
  .string({ error: 'Title is required' })
  .trim()
  .min(1, 'Title is required')
  .max(TITLE_MAX_LENGTH, `Title must be at most ${TITLE_MAX_LENGTH} characters`);
const DescriptionSchema = z
  .string({ error: 'Description is required' })
  .trim()
  .min(1, 'Description is required')
  .max(DESCRIPTION_MAX_LENGTH, `Description must be at most ${DESCRIPTION_MAX_LENGTH} characters`);
/** The winning selections, shown to buyers after purchase. */
const SelectionsSchema = z
  .string()
  .trim()
  .max(SELECTIONS_MAX_LENGTH, `Winning selections must be at most ${SELECTIONS_MAX_LENGTH} characters`);
const CategorySchema = z.enum(CATEGORIES, { error: 'Please choose a category from the list' });

/** What a capper writes about a video: the same rules on upload and on edit. */
export const VideoDetailsSchema = z.object({
  title: TitleSchema,
  description: DescriptionSchema,
  emailInformation: SelectionsSchema.default(''),
  price: PriceSchema,
  category: CategorySchema,
});
export type VideoDetails = z.infer<typeof VideoDetailsSchema>;

/** An edit: any of the same fields, no defaults (an absent field stays as it is). */
export const VideoUpdateSchema = z
  .object({
    title: TitleSchema.optional(),
    description: DescriptionSchema.optional(),
    emailInformation: SelectionsSchema.optional(),
    price: PriceSchema.optional(),
    category: CategorySchema.optional(),
    // The pick's legs (all of them, replacing the sealed ones) and whether it is a parlay.
    legs: z.array(LegInputSchema).max(MAX_LEGS, TOO_MANY_LEGS_MESSAGE).optional(),
    parlay: z.boolean().optional(),
  })
  .refine((value) => Object.values(value).some((field) => field !== undefined), {
    message: 'Nothing to update',
  });
export type VideoUpdate = z.infer<typeof VideoUpdateSchema>;

/** The orders that are one column of a video, each read through its own index (deep pages, too). */
export const VIDEO_SORTS = ['newest', 'price_asc', 'price_desc', 'popular'] as const;
/** `record`: the picks of cappers with a verified record first, best all-time units first, each newest first. */
export const CATALOG_SORTS = [...VIDEO_SORTS, 'record'] as const;
export type VideoSort = (typeof CATALOG_SORTS)[number];
/** `open`: still on sale (unverified, or a sealed pick whose first leg has not started); `graded`: has a result. */
export const VIDEO_STATUSES = ['open', 'graded'] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];
export const VIDEO_PAGE_SIZE = PAGE_LIMITS.catalog.default;

export const VideoListQuerySchema = z.object({
  q: z.string().trim().max(100, 'Search text must be at most 100 characters').optional(),
  category: z.enum(CATEGORIES, { error: 'Unknown category' }).optional(),
  status: z.enum(VIDEO_STATUSES, { error: 'Unknown status: use open or graded' }).optional(),
  verified: z
    .enum(['true', 'false'], { error: 'verified must be true or false' })
    .optional()
    .meta({ description: 'true: sealed picks (with legs) only' }),
  sort: z.enum(CATALOG_SORTS, { error: 'Unknown sort order' }).default('newest'),
  ...CatalogPageQuerySchema.shape,
});
export type VideoListQuery = z.infer<typeof VideoListQuerySchema>;

export const SHARE_PLATFORMS = ['copy', 'x', 'facebook', 'whatsapp'] as const;
export const ShareSchema = z.object({
  platform: z.enum(SHARE_PLATFORMS, { error: 'Unknown share platform' }),
});

export const TRANSCODING_STATUSES = ['pending', 'processing', 'ready', 'failed'] as const;
export type TranscodingStatus = (typeof TRANSCODING_STATUSES)[number];

/** The capper a video belongs to, as cards show them. */
export const CapperSchema = z
  .object({
    id: z.int(),
    username: z.string(),
    displayName: z.string().nullable(),
    avatarUrl: z.string().nullable(),
  })
  .meta({ id: 'Capper' });
export type Capper = z.infer<typeof CapperSchema>;

/**
 * A video as every endpoint returns it (spec 3 'Video'). `emailInformation` and `originalUrl` are present
 * only for the owner, buyers and admins (videos-service.ts toPublicVideo); a field not declared here never
 * leaves the server.
 */
export const VideoSchema = z
  .object({
    id: z.int(),
    userId: z.int(),
    title: z.string(),
    description: z.string(),
    emailInformation: z
      .string()
      .optional()
      .meta({ description: 'The winning selections: present only for the owner, its buyers and admins.' }),
    originalUrl: z.string().nullable().optional().meta({
      description:
        'The uploaded original file (direct download after purchase): present only for the owner, its buyers and admins; null for links or before it is stored.',
    }),
    /** Dollars. */
    price: z.number(),
    category: z.string(),
    thumbnailUrl: z.string().nullable(),
    videoUrl: z.string().nullable(),
    webmUrl: z.string().nullable(),
    ogvUrl: z.string().nullable(),
    hlsUrl: z.string().nullable(),
    externalVideoUrl: z.string().nullable(),
    isExternalVideo: z.boolean(),
    isTranscoded: z.boolean(),
    transcodingStatus: z.enum(TRANSCODING_STATUSES),
    /** 0 to 100. */
    transcodingProgress: z.int(),
    /** Why processing failed: for the owner and admins only, else null. */
    transcodingError: z.string().nullable(),
    availableFormats: z.array(z.string()),
    /** Whole seconds. */
    duration: z.int().nullable(),
    isPremium: z.boolean(),
    views: z.int(),
    shareUrl: z.string().nullable(),
    shareCount: z.int(),
    createdAt: z.iso.datetime(),
    capper: CapperSchema,
    // A verified pick's commitment and post time, for everyone before buying; null if unverified.
    pick: z
      .object({
        commitment: z.string(),
        postedAt: z.iso.datetime(),
        legCount: z.int(),
        status: z.enum(['open', 'started', 'graded']),
        result: z.enum(['win', 'loss', 'push', 'void']).nullable().meta({ description: 'Once graded' }),
        unitsWon: z.number().nullable().meta({ description: 'Once graded' }),
        selfReported: z
          .boolean()
          .meta({ description: 'A leg is self-reported: never counted in the record' }),
      })
      .nullable(),
    isOwner: z.boolean(),
    isPurchased: z.boolean(),
  })
  .meta({ id: 'Video', description: 'A video as the viewer may see it.' });
export type Video = z.infer<typeof VideoSchema>;

export const VideoListSchema = z.array(VideoSchema);

/** GET /api/videos/{id}/purchased (spec 7): false for a visitor. */
export const PurchasedFlagSchema = z.object({ purchased: z.boolean() });
export type PurchasedFlag = z.infer<typeof PurchasedFlagSchema>;

/** POST /api/videos/{id}/view: whether this view was counted (once per viewer per hour). */
export const ViewCountedSchema = z.object({ counted: z.boolean() });
export type ViewCounted = z.infer<typeof ViewCountedSchema>;

/** POST /api/videos/{id}/share: the video's new share count. */
export const ShareCountSchema = z.object({ shareCount: z.int() });
export type ShareCount = z.infer<typeof ShareCountSchema>;
