import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Login, User } from '../../../../common/schemas/auth.js';
import { toast } from '../../../components/ui/use-toast';
import { apiJson } from '../../../lib/api-request';
import { errorMessage } from '../../../lib/error-message';
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
