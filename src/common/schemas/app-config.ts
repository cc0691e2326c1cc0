import { z } from 'zod';

export { APP_CONFIG_META_NAME } from '../constants.js';

/**
 * Settings the browser needs, written by the server into index.html as
 * <meta name="pickreel-config" content="{json}"> so the first paint needs no extra request.
 */
export const AppConfigSchema = z.object({
  supportPhone: z.string(),
  paymentProvider: z.enum(['sandbox', 'stripe']),
  stripePublishableKey: z.string().nullable(),
  /** Bytes per tus PATCH the browser sends: larger when media is in a bucket (docs/decisions/022). */
  uploadChunkBytes: z.number().int().positive(),
  /**
   * The leagues whose moneyline, spread and total legs are on the market's games at its prices
   * (docs/decisions/025); empty without a market.
   */
  marketLeagues: z.array(z.string()).default([]),
});
export type AppConfig = z.infer<typeof AppConfigSchema>;
