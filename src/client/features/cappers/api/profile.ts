import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AVATAR_FILE_FIELD, type Profile, type ProfileUpdate } from '#common/schemas/profile.js';
import { apiJson } from '#client/lib/api-request.ts';

export const PROFILE_QUERY_KEY = ['/api/profile'] as const;

/** The signed-in user's display name, bio and avatar, as their public page shows them. */
export function useProfile() {
  return useQuery({
    queryKey: PROFILE_QUERY_KEY,
    queryFn: () => apiJson<Profile>('GET', '/api/profile'),
  });
}

/** The picture as multipart/form-data; a refusal becomes apiRequest's "status: body" error. */
async function putAvatar(file: File): Promise<Profile> {
  const body = new FormData();
  body.append(AVATAR_FILE_FIELD, file);
  const res = await fetch('/api/profile/avatar', { method: 'PUT', credentials: 'include', body });
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw new Error(`${res.status}: ${text || res.statusText}`);
  }
  return (await res.json()) as Profile;
}

/**
 * Each change is what the public page, the signed-in user's session and the cards show next: the answer
 * becomes the settings' data, and those are read again.
 */
function useProfileChange<Input>(change: (input: Input) => Promise<Profile>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (profile) => {
      queryClient.setQueryData(PROFILE_QUERY_KEY, profile);
      void queryClient.invalidateQueries({ queryKey: ['/api/cappers', profile.username] });
      void queryClient.invalidateQueries({ queryKey: ['/api/user'] });
      void queryClient.invalidateQueries({ queryKey: ['/api/videos'] });
    },
  });
}

export const useUpdateProfile = () =>
  useProfileChange((changes: ProfileUpdate) => apiJson<Profile>('PATCH', '/api/profile', changes));
export const useUploadAvatar = () => useProfileChange(putAvatar);
export const useRemoveAvatar = () =>
  useProfileChange(() => apiJson<Profile>('DELETE', '/api/profile/avatar'));
