import { Redirect, useLocation, useSearch } from 'wouter';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { Card, CardContent } from '#client/components/ui/card.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#client/components/ui/tabs.tsx';
import { authPath, nextFromSearch } from '#client/lib/auth-redirect.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { useUser } from '../api/get-user';
import { AuthMarketingPanel } from '../components/auth-marketing-panel';
import { LoginForm } from '../components/login-form';
import { RegisterForm } from '../components/register-form';

type AuthTab = 'login' | 'register';

export function AuthPage() {
  const { data: user, isLoading } = useUser();
  const search = useSearch();
  const [, navigate] = useLocation();
  // The tab lives in the URL (spec 2: ?tab=register), so the navbar's "Open Account" link works from here too.
  const tab: AuthTab = new URLSearchParams(search).get('tab') === 'register' ? 'register' : 'login';
  // The page that sent the user here (?next=, same-site paths only); after signing in or
  // registering they go back to it, else home. Switching tabs keeps it.
  const returnTo = nextFromSearch(window.location.search);
  const showTab = (next: AuthTab) => navigate(authPath({ tab: next, next: returnTo }), { replace: true });
  const goBack = () => navigate(returnTo ?? '/', { replace: true });
  useDocumentTitle(tab === 'login' ? 'Sign in' : 'Create account');

  if (isLoading) return <PageSpinner label="Checking your session" />;
  if (user) return <Redirect to={returnTo ?? '/'} replace />;

  return (
    <div className="mx-auto grid w-full max-w-6xl items-start gap-8 px-4 py-10 sm:px-6 lg:grid-cols-2 lg:gap-12 lg:py-16">
      <Card className="w-full">
        <CardContent className="p-6 sm:p-8">
          <h1 className="mb-1 text-2xl font-bold tracking-tight">
            {tab === 'login' ? 'Welcome back' : 'Create your account'}
          </h1>
          <p className="mb-6 text-sm text-muted-foreground">
            {tab === 'login'
              ? 'Sign in to buy winners or manage your uploads.'
              : 'One account to sell your picks and to buy winners.'}
          </p>
          <Tabs value={tab} onValueChange={(value) => showTab(value as AuthTab)}>
            <TabsList className="w-full">
              <TabsTrigger value="login">Login</TabsTrigger>
              <TabsTrigger value="register">Register</TabsTrigger>
            </TabsList>
            <TabsContent value="login">
              <LoginForm onSuccess={goBack} onSwitchToRegister={() => showTab('register')} />
            </TabsContent>
            <TabsContent value="register">
              <RegisterForm onSuccess={goBack} onSwitchToLogin={() => showTab('login')} />
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>
      <AuthMarketingPanel />
    </div>
  );
}
