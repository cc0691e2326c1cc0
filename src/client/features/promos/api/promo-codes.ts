import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatePromoCode, PromoCode } from '#common/schemas/promos.js';
import { apiJson } from '#client/lib/api-request.ts';

// The capper's own promo codes (decision 039): one file for the list and its two changes, which share
// the list's query key.
const codesUrl = (username: string) => `/api/cappers/${encodeURIComponent(username)}/promo-codes`;

export function promoCodesQueryKey(username: string) {
  return [codesUrl(username)] as const;
}

export async function getPromoCodes(username: string): Promise<PromoCode[]> {
  return apiJson<PromoCode[]>('GET', codesUrl(username));
}

export function getPromoCodesQueryOptions(username: string) {
  return queryOptions({ queryKey: promoCodesQueryKey(username), queryFn: () => getPromoCodes(username) });
}

export function usePromoCodes(username: string) {
  return useQuery(getPromoCodesQueryOptions(username));
}

export function useCreatePromoCode(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreatePromoCode) => apiJson<PromoCode>('POST', codesUrl(username), input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: promoCodesQueryKey(username) }),
  });
}

export function useRetirePromoCode(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiJson<PromoCode>('POST', `${codesUrl(username)}/${id}/retire`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: promoCodesQueryKey(username) }),
  });
}
