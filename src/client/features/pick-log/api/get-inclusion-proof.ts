import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InclusionProof } from '#common/schemas/pick-log.js';
import { apiJson } from '#client/lib/api-request.ts';

export type { InclusionProof };

export function inclusionProofQueryKey(index: number, treeSize: number) {
  return ['/api/log/proof/inclusion', { index, treeSize }] as const;
}

/** RFC 9162 inclusion proof of entry `index` in the tree of `treeSize`; 400 outside the signed tree. */
export async function getInclusionProof(index: number, treeSize: number): Promise<InclusionProof> {
  const query = new URLSearchParams({ index: String(index), treeSize: String(treeSize) });
  return apiJson<InclusionProof>('GET', `/api/log/proof/inclusion?${query}`);
}

export function getInclusionProofQueryOptions(index: number, treeSize: number) {
  return queryOptions({
    queryKey: inclusionProofQueryKey(index, treeSize),
    queryFn: () => getInclusionProof(index, treeSize),
  });
}

export function useInclusionProof(index: number, treeSize: number) {
  return useQuery(getInclusionProofQueryOptions(index, treeSize));
}
