import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { LeaderboardPeriod, LeaderboardSort } from '#common/capper-records.js';
import type { Leaderboard } from '#common/schemas/cappers.js';
import type { League } from '#common/schemas/picks.js';
import { apiJson } from '#client/lib/api-request.ts';

export interface LeaderboardFilters {
  period: LeaderboardPeriod;
  league: League | null;
  sort: LeaderboardSort;
  offset: number;
}

export const LEADERBOARD_PAGE_SIZE = 50;

export function leaderboardQueryKey(filters: LeaderboardFilters) {
  return ['/api/leaderboard', filters] as const;
}

export async function getLeaderboard(filters: LeaderboardFilters): Promise<Leaderboard> {
  const query = new URLSearchParams({
    period: filters.period,
    sort: filters.sort,
    limit: String(LEADERBOARD_PAGE_SIZE),
    offset: String(filters.offset),
  });
  if (filters.league) query.set('league', filters.league);
  return apiJson<Leaderboard>('GET', `/api/leaderboard?${query}`);
}

export function getLeaderboardQueryOptions(filters: LeaderboardFilters) {
  return queryOptions({ queryKey: leaderboardQueryKey(filters), queryFn: () => getLeaderboard(filters) });
}

/** Changing a filter keeps the previous ranking on screen (dimmed) until the new one arrives. */
export function useLeaderboard(filters: LeaderboardFilters) {
  return useQuery({ ...getLeaderboardQueryOptions(filters), placeholderData: keepPreviousData });
}
