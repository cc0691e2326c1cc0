import type { AppConfig } from '#common/schemas/app-config.js';
import {
  APP_CONFIG_META_NAME as META_NAME,
  CHUNK_SIZE_BYTES,
  DEFAULT_SUPPORT_PHONE,
} from '#common/constants.js';

const DEFAULTS: AppConfig = {
  supportPhone: DEFAULT_SUPPORT_PHONE,
  paymentProvider: 'sandbox',
  stripePublishableKey: null,
  uploadChunkBytes: CHUNK_SIZE_BYTES,
  marketLeagues: [],
};

function parse(content: string | null | undefined): AppConfig {
  if (!content) return DEFAULTS;
  try {
    const raw = JSON.parse(content) as Partial<Record<keyof AppConfig, unknown>>;
    return {
      supportPhone:
        typeof raw.supportPhone === 'string' && raw.supportPhone ? raw.supportPhone : DEFAULTS.supportPhone,
      paymentProvider: raw.paymentProvider === 'stripe' ? 'stripe' : 'sandbox',
      stripePublishableKey: typeof raw.stripePublishableKey === 'string' ? raw.stripePublishableKey : null,
      uploadChunkBytes:
        typeof raw.uploadChunkBytes === 'number' &&
        Number.isSafeInteger(raw.uploadChunkBytes) &&
        raw.uploadChunkBytes > 0
          ? raw.uploadChunkBytes
          : DEFAULTS.uploadChunkBytes,
      marketLeagues: Array.isArray(raw.marketLeagues)
        ? raw.marketLeagues.filter((league): league is string => typeof league === 'string')
        : [],
    };
  } catch {
    return DEFAULTS;
  }
}

/**
 * The server writes the settings the browser needs into index.html, so the first paint needs no request.
 * Under `vite dev` the placeholder stays a comment and the defaults apply.
 */
export const appConfig: AppConfig = parse(
  typeof document === 'undefined'
    ? null
    : document.querySelector<HTMLMetaElement>(`meta[name="${META_NAME}"]`)?.content,
);
