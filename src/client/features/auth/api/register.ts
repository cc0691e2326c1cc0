import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '#common/schemas/auth.js';
import { PRODUCT_NAME } from '#common/constants.js';
import { toast } from '#client/components/ui/use-toast.ts';
import { apiJson } from '#client/lib/api-request.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { setSessionUser } from './session-cache';

/**
 * spec 5: the form sends these fields; bio and avatarUrl stay empty at sign-up. The e-mail is optional
 * (docs/product-decisions.md 'Accounts') and left out when none was given.
 */
export type RegisterPayload = {
  username: string;
  phoneNumber: string;
  password: string;
  bio: string;
  avatarUrl: string;
  email?: string;
};

export async function register(payload: RegisterPayload): Promise<User> {
  return apiJson<User>('POST', '/api/register', payload);
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (user) => {
      setSessionUser(queryClient, user);
      toast({
        title: 'Registration successful',
        description: `Welcome to ${PRODUCT_NAME}, ${user.username}!`,
        variant: 'success',
      });
    },
    onError: (error) => {
      toast({ title: 'Registration failed', description: errorMessage(error), variant: 'destructive' });
    },
  });
}
