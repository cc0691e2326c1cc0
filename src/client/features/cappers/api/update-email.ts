import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EmailUpdate, Profile } from '#common/schemas/profile.js';
import { apiJson } from '#client/lib/api-request.ts';
import { PROFILE_QUERY_KEY } from './profile';

/** Sets the address as pending: the server mails it a confirmation link and answers the profile. */
export function updateEmail(input: EmailUpdate): Promise<Profile> {
  return apiJson<Profile>('PUT', '/api/profile/email', input);
}

export function useUpdateEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEmail,
    onSuccess: (profile) => queryClient.setQueryData(PROFILE_QUERY_KEY, profile),
  });
}
