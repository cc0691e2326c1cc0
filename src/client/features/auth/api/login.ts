import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Login, User } from '#common/schemas/auth.js';
import { toast } from '#client/components/ui/use-toast.ts';
import { apiJson } from '#client/lib/api-request.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { setSessionUser } from './session-cache';

export async function login(credentials: Login): Promise<User> {
  return apiJson<User>('POST', '/api/login', credentials);
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => {
      setSessionUser(queryClient, user);
      toast({
        title: 'Login successful',
        description: `Welcome back, ${user.username}!`,
        variant: 'success',
      });
    },
    onError: (error) => {
      toast({ title: 'Login failed', description: errorMessage(error), variant: 'destructive' });
    },
  });
}
