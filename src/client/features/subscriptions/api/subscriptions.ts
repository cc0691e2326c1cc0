import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Subscribe, SubscribeToPlan, Subscription } from '#common/schemas/subscriptions.js';
import { apiJson } from '#client/lib/api-request.ts';

export type { Subscription };

export const SUBSCRIPTIONS_QUERY_KEY = ['/api/subscriptions'] as const;

/** GET /api/subscriptions: the signed-in user's, newest first. */
export async function getSubscriptions(): Promise<Subscription[]> {
  return apiJson<Subscription[]>('GET', '/api/subscriptions');
}

export function useSubscriptions() {
  return useQuery({ queryKey: SUBSCRIPTIONS_QUERY_KEY, queryFn: getSubscriptions });
}

/** Picks the subscription grants read as bought: every cached list of videos is stale. */
function invalidateAfterChange(queryClient: ReturnType<typeof useQueryClient>) {
  void queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_QUERY_KEY });
  void queryClient.invalidateQueries({ queryKey: ['/api/videos'] });
  void queryClient.invalidateQueries({ queryKey: ['/api/cappers'] });
}

export function useSubscribe(planId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SubscribeToPlan) =>
      apiJson<Subscription>('POST', `/api/plans/${planId}/subscribe`, body),
    onSuccess: () => invalidateAfterChange(queryClient),
  });
}

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiJson<Subscription>('POST', `/api/subscriptions/${id}/cancel`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_QUERY_KEY }),
  });
}

/** PUT /api/subscriptions/{id}/card: a past-due subscription is charged on the new card at once. */
export function useChangeCard(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Subscribe) => apiJson<Subscription>('PUT', `/api/subscriptions/${id}/card`, body),
    onSuccess: () => invalidateAfterChange(queryClient),
  });
}
