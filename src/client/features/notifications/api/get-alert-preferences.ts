import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AlertPreferences } from '#common/schemas/alert-preferences.js';
import { apiJson } from '#client/lib/api-request.ts';

export type { AlertPreferences };

/** Its own key, outside the alert lists' (marking alerts read rewrites every query under those). */
export const ALERT_PREFERENCES_KEY = ['/api/notification-preferences'] as const;

export function getAlertPreferences(): Promise<AlertPreferences> {
  return apiJson<AlertPreferences>('GET', '/api/notifications/preferences');
}

export function getAlertPreferencesQueryOptions() {
  return queryOptions({ queryKey: ALERT_PREFERENCES_KEY, queryFn: getAlertPreferences });
}

/** The signed-in user's switches per channel and kind, and the cappers they follow or muted. */
export function useAlertPreferences() {
  return useQuery(getAlertPreferencesQueryOptions());
}
