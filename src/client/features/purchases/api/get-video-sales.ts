import { useQuery } from '@tanstack/react-query';
import type { VideoSales } from '#common/schemas/purchases.js';
import { apiJson } from '#client/lib/api-request.ts';

/** The capper's sales per video, for the dashboard's upload cards. */
export function useVideoSales({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['/api/user/sales/by-video'],
    queryFn: () => apiJson<VideoSales[]>('GET', '/api/user/sales/by-video'),
    enabled,
  });
}
