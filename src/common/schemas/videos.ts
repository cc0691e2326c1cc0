import { z } from 'zod';
import { CATEGORIES } from '../constants.js';
import { queryInt } from './ids.js';

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
  })
  .refine((value) => Object.values(value).some((field) => field !== undefined), {
    message: 'Nothing to update',
  });
export type VideoUpdate = z.infer<typeof VideoUpdateSchema>;

export const VIDEO_SORTS = ['newest', 'price_asc', 'price_desc', 'popular'] as const;
export type VideoSort = (typeof VIDEO_SORTS)[number];
export const VIDEO_PAGE_SIZE = 24;
export const VIDEO_PAGE_MAX = 60;
export const VIDEO_OFFSET_MAX = 100_000;

export const VideoListQuerySchema = z.object({
  q: z.string().trim().max(100, 'Search text must be at most 100 characters').optional(),
  category: z.enum(CATEGORIES, { error: 'Unknown category' }).optional(),
  sort: z.enum(VIDEO_SORTS, { error: 'Unknown sort order' }).default('newest'),
  limit: queryInt({ name: 'Limit', min: 1, max: VIDEO_PAGE_MAX, default: VIDEO_PAGE_SIZE }),
  offset: queryInt({ name: 'Offset', min: 0, max: VIDEO_OFFSET_MAX, default: 0 }),
});
export type VideoListQuery = z.infer<typeof VideoListQuerySchema>;

export const SHARE_PLATFORMS = ['copy', 'x', 'facebook', 'whatsapp'] as const;
export const ShareSchema = z.object({
  platform: z.enum(SHARE_PLATFORMS, { error: 'Unknown share platform' }),
});

export const TRANSCODING_STATUSES = ['pending', 'processing', 'ready', 'failed'] as const;
export type TranscodingStatus = (typeof TRANSCODING_STATUSES)[number];

export interface Capper {
  id: number;
  username: string;
  displayName: string | null;
  avatarUrl: string | null;
}

/** A video as every endpoint returns it. `emailInformation` is present only for owner, buyers and admins. */
export interface Video {
  id: number;
  userId: number;
  title: string;
  description: string;
  emailInformation?: string | null;
  /**
   * The uploaded original file ("direct download after purchase"): present, like `emailInformation`, only
   * for the owner, buyers and admins, and only for an uploaded file (null for links or before it is stored).
   */
  originalUrl?: string | null;
  price: number;
  category: string;
  thumbnailUrl: string | null;
  videoUrl: string | null;
  webmUrl: string | null;
  ogvUrl: string | null;
  hlsUrl: string | null;
  externalVideoUrl: string | null;
  isExternalVideo: boolean;
  isTranscoded: boolean;
  transcodingStatus: TranscodingStatus;
  transcodingProgress: number;
  transcodingError: string | null;
  availableFormats: string[];
  duration: number | null;
  isPremium: boolean;
  views: number;
  shareUrl: string | null;
  shareCount: number;
  createdAt: string;
  capper: Capper;
  isOwner: boolean;
  isPurchased: boolean;
}
