import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AlertChannel, AlertKind, AlertPreferencesUpdate } from '#common/schemas/alert-preferences.js';
import { toast } from '#client/components/ui/use-toast.ts';
import { apiJson } from '#client/lib/api-request.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { ALERT_PREFERENCES_KEY, type AlertPreferences } from './get-alert-preferences';

export function updateAlertPreferences(update: AlertPreferencesUpdate): Promise<AlertPreferences> {
  return apiJson<AlertPreferences>('PUT', '/api/notifications/preferences', update);
}

export interface SwitchChange {
  channel: AlertChannel;
  kind: AlertKind;
  enabled: boolean;
}

/**
 * One switch, shown at once and saved; put back with a message if the server refuses. Changes go one after
 * another, so the server ends as the last press left it.
 */
export function useUpdateAlertPreference() {
  const queryClient = useQueryClient();
  return useMutation({
    scope: { id: 'alert-preferences' },
    mutationFn: ({ channel, kind, enabled }: SwitchChange) =>
      updateAlertPreferences({ channels: { [channel]: { [kind]: enabled } } }),
    onMutate: async ({ channel, kind, enabled }) => {
      await queryClient.cancelQueries({ queryKey: ALERT_PREFERENCES_KEY });
      const before = queryClient.getQueryData<AlertPreferences>(ALERT_PREFERENCES_KEY);
      if (before)
        queryClient.setQueryData<AlertPreferences>(ALERT_PREFERENCES_KEY, {
          ...before,
          channels: { ...before.channels, [channel]: { ...before.channels[channel], [kind]: enabled } },
        });
      return { before };
    },
    onSuccess: (preferences) => {
      if (queryClient.isMutating({ predicate: (m) => m.options.scope?.id === 'alert-preferences' }) <= 1)
        queryClient.setQueryData(ALERT_PREFERENCES_KEY, preferences);
    },
    onError: (error, _change, context) => {
      if (context?.before) queryClient.setQueryData(ALERT_PREFERENCES_KEY, context.before);
      toast({ title: 'Could not save', description: errorMessage(error), variant: 'destructive' });
    },
  });
}
