import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AlertChannel, CapperAlerts } from '#common/schemas/alert-preferences.js';
import { toast } from '#client/components/ui/use-toast.ts';
import { apiJson } from '#client/lib/api-request.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { ALERT_PREFERENCES_KEY, type AlertPreferences } from './get-alert-preferences';

export function updateCapperAlerts(
  username: string,
  channel: AlertChannel,
  on: boolean,
): Promise<CapperAlerts> {
  return apiJson<CapperAlerts>('PUT', `/api/cappers/${encodeURIComponent(username)}/alerts`, {
    [channel]: on,
  });
}

function withCapper(preferences: AlertPreferences, capper: CapperAlerts): AlertPreferences {
  return {
    ...preferences,
    cappers: preferences.cappers.map((c) => (c.username === capper.username ? capper : c)),
  };
}

/** Mutes or unmutes one capper on one channel, shown at once, put back with a message on failure. */
export function useUpdateCapperAlerts() {
  const queryClient = useQueryClient();
  return useMutation({
    scope: { id: 'alert-preferences' },
    mutationFn: ({ username, channel, on }: { username: string; channel: AlertChannel; on: boolean }) =>
      updateCapperAlerts(username, channel, on),
    onMutate: async ({ username, channel, on }) => {
      await queryClient.cancelQueries({ queryKey: ALERT_PREFERENCES_KEY });
      const before = queryClient.getQueryData<AlertPreferences>(ALERT_PREFERENCES_KEY);
      const capper = before?.cappers.find((c) => c.username === username);
      if (before && capper)
        queryClient.setQueryData(
          ALERT_PREFERENCES_KEY,
          withCapper(before, { ...capper, channels: { ...capper.channels, [channel]: on } }),
        );
      return { before };
    },
    onError: (error, _change, context) => {
      if (context?.before) queryClient.setQueryData(ALERT_PREFERENCES_KEY, context.before);
      toast({ title: 'Could not save', description: errorMessage(error), variant: 'destructive' });
    },
  });
}
