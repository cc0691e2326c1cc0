import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PurchaseReceipt } from '#common/schemas/purchases.js';
import { apiJson } from '#client/lib/api-request.ts';

/** Under the purchases' key, so a completed payment's refresh of the purchases refreshes receipts too. */
export function receiptQueryKey(purchaseId: number) {
  return ['/api/user/purchases', 'receipt', purchaseId] as const;
}

/** The buyer's only: 404 for anyone else. */
export async function getReceipt(purchaseId: number): Promise<PurchaseReceipt> {
  return apiJson<PurchaseReceipt>('GET', `/api/purchases/${purchaseId}`);
}

// Until the pick is graded its legs start and settle: asked again every minute while the page is open.
const LIVE_REFRESH_MS = 60_000;

export function useReceipt(purchaseId: number | null) {
  return useQuery({
    ...queryOptions({
      queryKey: receiptQueryKey(purchaseId ?? 0),
      queryFn: () => getReceipt(purchaseId ?? 0),
    }),
    enabled: purchaseId !== null,
    refetchInterval: (query) =>
      query.state.data && query.state.data.outcome?.status !== 'graded' && query.state.data.pick
        ? LIVE_REFRESH_MS
        : false,
  });
}
