import { useEffect, useRef, type ReactNode } from 'react';
import { Redirect, useLocation } from 'wouter';
import { PageSpinner } from '../components/ui/spinner';
import { toast } from '../components/ui/use-toast';
import { useUser } from '../features/auth';
import { authPath, useReturnPath } from '../lib/auth-redirect';

type RequireAuthProps = { children: ReactNode; admin?: boolean };

// spec 2: a spinner while the session loads, then signed-out visitors go to /auth. The server enforces
// every rule again; this only spares people a page they cannot use. /auth brings them back here.
export function RequireAuth({ children, admin = false }: RequireAuthProps) {
  const { data: user, isLoading } = useUser();
  const returnPath = useReturnPath();
  if (isLoading) return <PageSpinner label="Checking your session" />;
  if (!user) return <Redirect to={authPath({ next: returnPath })} replace />;
  if (admin && !user.isAdmin) return <AccessDenied />;
  return children;
}

function AccessDenied() {
  const [, navigate] = useLocation();
  const handled = useRef(false);
  useEffect(() => {
    // StrictMode runs effects twice in development; the user should see one toast.
    if (handled.current) return;
    handled.current = true;
    toast({
      title: 'Access Denied',
      description: 'You do not have permission to access the admin dashboard.',
      variant: 'destructive',
    });
    navigate('/', { replace: true });
  }, [navigate]);
  return null;
}
