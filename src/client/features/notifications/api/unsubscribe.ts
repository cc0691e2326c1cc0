import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { Unsubscribed, UnsubscribeLink } from '#common/schemas/alert-preferences.js';
import { apiJson } from '#client/lib/api-request.ts';

/** What the link turns off (no session needed): 400 for one not ours or expired. */
export function getUnsubscribeLink(token: string): Promise<UnsubscribeLink> {
  return apiJson<UnsubscribeLink>('GET', `/api/unsubscribe/link?token=${encodeURIComponent(token)}`);
}

export function getUnsubscribeLinkQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['/api/unsubscribe/link', token],
    queryFn: () => getUnsubscribeLink(token),
    enabled: token !== '',
  });
}

export function useUnsubscribeLink(token: string) {
  return useQuery(getUnsubscribeLinkQueryOptions(token));
}

/** The button: the same POST a mail client's one-click sends. */
export function unsubscribe(token: string): Promise<Unsubscribed> {
  return apiJson<Unsubscribed>('POST', `/api/unsubscribe?token=${encodeURIComponent(token)}`);
}

export function useUnsubscribe() {
  return useMutation({ mutationFn: unsubscribe });
}
