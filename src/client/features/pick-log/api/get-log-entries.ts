import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { LogEntriesSchema } from '#common/schemas/pick-log.js';
import { apiJson } from '#client/lib/api-request.ts';

/** `{ entries: [base64 of entry bytes] }` for start ≤ i < end. */
export type LogEntries = z.infer<typeof LogEntriesSchema>;

export function logEntriesQueryKey(start: number, end: number) {
  return ['/api/log/entries', { start, end }] as const;
}

/** At most 1,000 entries (LOG_ENTRIES_PAGE); 400 when `end` passes the latest checkpoint's size. */
export async function getLogEntries(start: number, end: number): Promise<LogEntries> {
  const query = new URLSearchParams({ start: String(start), end: String(end) });
  return apiJson<LogEntries>('GET', `/api/log/entries?${query}`);
}

export function getLogEntriesQueryOptions(start: number, end: number) {
  return queryOptions({
    queryKey: logEntriesQueryKey(start, end),
    queryFn: () => getLogEntries(start, end),
  });
}

/** Entries are immutable once logged, so a range once fetched never needs fetching again. */
export function useLogEntries(start: number, end: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getLogEntriesQueryOptions(start, end), enabled });
}

/** The /log page's pages of entries, newest first. */
export const RECENT_ENTRIES_PAGE = 50;

export type RecentEntriesPage = { start: number; end: number; entries: string[] };

/**
 * Entries below `treeSize` (the checkpoint's), 50 at a time going back: each page is [start, end) and the
 * next ends where it started. Keyed by the tree size, so a newer checkpoint starts from its own top.
 */
export function getRecentLogEntriesQueryOptions(treeSize: number) {
  return infiniteQueryOptions({
    queryKey: ['/api/log/entries', 'recent', treeSize] as const,
    initialPageParam: treeSize,
    queryFn: async ({ pageParam: end }): Promise<RecentEntriesPage> => {
      const start = Math.max(0, end - RECENT_ENTRIES_PAGE);
      const { entries } = await getLogEntries(start, end);
      return { start, end, entries };
    },
    getNextPageParam: (last: RecentEntriesPage) => (last.start > 0 ? last.start : undefined),
  });
}

export function useRecentLogEntries(treeSize: number | undefined) {
  return useInfiniteQuery({
    ...getRecentLogEntriesQueryOptions(treeSize ?? 0),
    enabled: treeSize !== undefined && treeSize > 0,
  });
}
