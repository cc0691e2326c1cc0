import { queryOptions, useQueries } from '@tanstack/react-query';
import type { LogPicks } from '#common/schemas/pick-log.js';
import { apiJson } from '#client/lib/api-request.ts';

export type LogPick = LogPicks['picks'][number];

/** The titles of the picks some log entries name (at most 100 ids: MAX_LOG_PICKS). */
export async function getLogPicks(videoIds: readonly number[]): Promise<LogPicks> {
  return apiJson<LogPicks>('GET', `/api/log/picks?videoIds=${videoIds.join(',')}`);
}

export function getLogPicksQueryOptions(videoIds: readonly number[]) {
  const ids = [...new Set(videoIds)].sort((a, b) => a - b);
  return queryOptions({
    queryKey: ['/api/log/picks', ids] as const,
    queryFn: () => getLogPicks(ids),
    enabled: ids.length > 0,
  });
}

/**
 * One request per page of entries (their ids, at most 50), so loading older entries asks only for theirs;
 * the answer is every id's pick, by video id, as far as loaded.
 */
export function useLogPicks(pages: readonly (readonly number[])[]): {
  picks: Map<number, LogPick>;
  failed: boolean;
} {
  return useQueries({
    queries: pages.map((ids) => getLogPicksQueryOptions(ids)),
    combine: (results) => {
      const picks = new Map<number, LogPick>();
      for (const result of results)
        for (const pick of result.data?.picks ?? []) picks.set(pick.videoId, pick);
      return { picks, failed: results.some((result) => result.isError) };
    },
  });
}
