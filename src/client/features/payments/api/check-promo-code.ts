import { useMutation } from '@tanstack/react-query';
import type { PromoQuote } from '#common/schemas/promos.js';
import { apiJson } from '#client/lib/api-request.ts';

/**
 * Whether a code applies to this pick (or plan), and its price with it: the server's word, with its refusal's
 * sentence.
 */
export async function checkPromoCode(input: {
  videoId?: number | undefined;
  planId?: number | undefined;
  code: string;
}): Promise<PromoQuote> {
  return apiJson<PromoQuote>('POST', '/api/promo-codes/check', input);
}

export function useCheckPromoCode() {
  return useMutation({ mutationFn: checkPromoCode });
}
