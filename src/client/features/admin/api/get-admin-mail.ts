import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { MAIL_PAGE_DEFAULT, type AdminMailPage } from '#common/schemas/mail.js';
import { apiJson } from '#client/lib/api-request.ts';

export const ADMIN_MAIL_QUERY_KEY = ['/api/admin/mail'] as const;

/** One page of the outbox, newest first: the newest page, or the mails older than `before`. */
export async function getAdminMail(before: number | null): Promise<AdminMailPage> {
  const query = `limit=${MAIL_PAGE_DEFAULT}${before === null ? '' : `&before=${before}`}`;
  return apiJson<AdminMailPage>('GET', `/api/admin/mail?${query}`);
}

export function getAdminMailQueryOptions(before: number | null) {
  return queryOptions({ queryKey: [...ADMIN_MAIL_QUERY_KEY, before], queryFn: () => getAdminMail(before) });
}

/** The previous page stays on screen while the next one loads. */
export function useAdminMail(before: number | null) {
  return useQuery({ ...getAdminMailQueryOptions(before), placeholderData: keepPreviousData });
}
