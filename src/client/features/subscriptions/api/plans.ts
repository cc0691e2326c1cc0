import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatePlan, Plan } from '#common/schemas/subscriptions.js';
import { apiJson } from '#client/lib/api-request.ts';

export type { CreatePlan, Plan };

/** Under the capper's own key, so refreshing everything about a capper refreshes this too. */
export function plansQueryKey(username: string) {
  return ['/api/cappers', username, 'plans'] as const;
}

function plansPath(username: string): string {
  return `/api/cappers/${encodeURIComponent(username)}/plans`;
}

/** GET /api/cappers/{username}/plans: public; the capper also gets their retired plans. */
export async function getPlans(username: string): Promise<Plan[]> {
  return apiJson<Plan[]>('GET', plansPath(username));
}

export function getPlansQueryOptions(username: string) {
  return queryOptions({ queryKey: plansQueryKey(username), queryFn: () => getPlans(username) });
}

export function usePlans(username: string) {
  return useQuery(getPlansQueryOptions(username));
}

export function useCreatePlan(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (plan: CreatePlan) => apiJson<Plan>('POST', plansPath(username), plan),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: plansQueryKey(username) }),
  });
}

export function useRetirePlan(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (planId: number) => apiJson<Plan>('POST', `${plansPath(username)}/${planId}/retire`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: plansQueryKey(username) }),
  });
}
