import { z } from 'zod';
import type { Video } from './videos.js';

const VideoId = z
  .number({ error: 'videoId must be a number' })
  .int('videoId must be a whole number')
  .positive('videoId must be positive')
  .max(2_147_483_647, 'videoId is too large');

export const CreatePaymentIntentSchema = z.object({ videoId: VideoId });

export const PaymentCompleteSchema = z.object({
  paymentIntentId: z
    .string({ error: 'paymentIntentId is required' })
    .trim()
    .min(1, 'paymentIntentId is required')
    .max(255),
  videoId: VideoId,
});

/** The sandbox card form's confirmation, shaped as Stripe.js would send it (decisions.md 'Payments'). */
export const SandboxConfirmSchema = z.object({
  clientSecret: z.string().min(1).max(255),
  card: z.object({
    number: z.string().max(40),
    expMonth: z.number().int(),
    expYear: z.number().int(),
    cvc: z.string().max(8),
  }),
});
export type SandboxConfirm = z.infer<typeof SandboxConfirmSchema>;

export interface PaymentIntentResponse {
  clientSecret: string;
  paymentIntentId: string;
  amount: number;
  currency: string;
  provider: 'sandbox' | 'stripe';
}

export interface SandboxConfirmResponse {
  status: 'succeeded' | 'requires_payment_method';
  paymentIntentId: string;
  error?: { message: string };
}

/** A purchase as the buyer's dashboard reads it (spec 3 'Purchase'): `videos` is null once the video is gone. */
export interface Purchase {
  id: number;
  videoId: number | null;
  amount: number;
  paymentIntentId: string;
  createdAt: string;
  purchaseDate: string;
  videoTitle: string;
  /** The selections as they stood at purchase, for a video that no longer exists. */
  selectionsSnapshot: string | null;
  videos: Video | null;
}

export interface Sale {
  id: number;
  amount: number;
  videoId: number | null;
  videoTitle: string | null;
  createdAt: string;
}
