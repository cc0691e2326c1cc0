import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PickRevealSchema } from '#common/schemas/pick-views.js';
import { apiJson } from '#client/lib/api-request.ts';

/** The whole sealed pick with its salt, and the commitment the server holds for it. */
export type PickReveal = z.infer<typeof PickRevealSchema>;

export function pickRevealQueryKey(videoId: number) {
  return ['/api/picks', videoId, 'reveal'] as const;
}

/** Public once every leg is graded; 403 `{ message }` before that, or for a pick removed by moderation. */
export async function getPickReveal(videoId: number): Promise<PickReveal> {
  return apiJson<PickReveal>('GET', `/api/picks/${videoId}/reveal`);
}

export function getPickRevealQueryOptions(videoId: number) {
  return queryOptions({ queryKey: pickRevealQueryKey(videoId), queryFn: () => getPickReveal(videoId) });
}

/** Asked for only once the pick is graded: before that the answer is a known 403. */
export function usePickReveal(videoId: number, { enabled }: { enabled: boolean }) {
  return useQuery({ ...getPickRevealQueryOptions(videoId), enabled });
}
