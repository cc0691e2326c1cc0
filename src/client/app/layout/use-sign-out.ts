import { useLocation } from 'wouter';
import { useLogout } from '#client/features/auth/index.ts';

/** Signs out and lands on the home page rather than on a protected page that would bounce to /auth. */
export function useSignOut() {
  const logout = useLogout();
  const [, navigate] = useLocation();
  return {
    signOut: () => logout.mutate(undefined, { onSuccess: () => navigate('/') }),
    isPending: logout.isPending,
  };
}
