import { lazy, Suspense, type ComponentType } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { PageSpinner } from '../components/ui/spinner';
import { HomePage } from '../features/videos/pages/home-page';
import { RequireAuth } from './require-auth';
import { RouteErrorBoundary } from './route-error-boundary';

/** React.lazy wants a default export; our modules export by name. */
function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return lazy(async () => ({ default: pick(await load()) }));
}

// Only the home page ships in the entry chunk; everything else loads on first visit (code-split by
// route so the home page never downloads admin, upload, checkout or auth code).
const AuthPage = lazyPage(
  () => import('../features/auth/pages/auth-page'),
  (m) => m.AuthPage,
);
const VideosPage = lazyPage(
  () => import('../features/videos/pages/videos-page'),
  (m) => m.VideosPage,
);
const VideoPage = lazyPage(
  () => import('../features/videos/pages/video-page'),
  (m) => m.VideoPage,
);
const EditVideoPage = lazyPage(
  () => import('../features/videos/pages/edit-video-page'),
  (m) => m.EditVideoPage,
);
const DashboardPage = lazyPage(
  () => import('./pages/dashboard-page'),
  (m) => m.DashboardPage,
);
const AnalyticsPage = lazyPage(
  () => import('../features/earnings/pages/analytics-page'),
  (m) => m.AnalyticsPage,
);
const UploadPage = lazyPage(
  () => import('../features/uploads/pages/upload-page'),
  (m) => m.UploadPage,
);
const CheckoutPage = lazyPage(
  () => import('../features/payments/pages/checkout-page'),
  (m) => m.CheckoutPage,
);
const ReceiptPage = lazyPage(
  () => import('../features/purchases/pages/receipt-page'),
  (m) => m.ReceiptPage,
);
const AdminPage = lazyPage(
  () => import('../features/admin/pages/admin-page'),
  (m) => m.AdminPage,
);
const CapperPage = lazyPage(
  () => import('../features/cappers/pages/capper-page'),
  (m) => m.CapperPage,
);
const ProfileSettingsPage = lazyPage(
  () => import('../features/cappers/pages/profile-settings-page'),
  (m) => m.ProfileSettingsPage,
);
const LeaderboardPage = lazyPage(
  () => import('../features/cappers/pages/leaderboard-page'),
  (m) => m.LeaderboardPage,
);
const LogPage = lazyPage(
  () => import('../features/pick-log/pages/log-page'),
  (m) => m.LogPage,
);
const FollowingPage = lazyPage(
  () => import('../features/follows/pages/following-page'),
  (m) => m.FollowingPage,
);
const NotificationsPage = lazyPage(
  () => import('../features/notifications/pages/notifications-page'),
  (m) => m.NotificationsPage,
);
const SubscribePage = lazyPage(
  () => import('../features/subscriptions/pages/subscribe-page'),
  (m) => m.SubscribePage,
);
const SubscriptionsPage = lazyPage(
  () => import('../features/subscriptions/pages/subscriptions-page'),
  (m) => m.SubscriptionsPage,
);
const NotificationSettingsPage = lazyPage(
  () => import('../features/notifications/pages/notification-settings-page'),
  (m) => m.NotificationSettingsPage,
);
const UnsubscribePage = lazyPage(
  () => import('../features/notifications/pages/unsubscribe-page'),
  (m) => m.UnsubscribePage,
);
const EmailConfirmationPage = lazyPage(
  () => import('../features/cappers/pages/email-confirmation-page'),
  (m) => m.EmailConfirmationPage,
);
const NotFoundPage = lazyPage(
  () => import('./not-found-page'),
  (m) => m.NotFoundPage,
);

export function AppRoutes() {
  const [location] = useLocation();
  return (
    <RouteErrorBoundary key={location}>
      <Suspense fallback={<PageSpinner />}>
        <Switch>
          <Route path="/" component={HomePage} />
          <Route path="/auth" component={AuthPage} />
          <Route path="/videos" component={VideosPage} />
          <Route path="/video/:id" component={VideoPage} />
          <Route path="/cappers/:username" component={CapperPage} />
          <Route path="/leaderboard" component={LeaderboardPage} />
          <Route path="/log" component={LogPage} />
          <Route path="/dashboard">
            <RequireAuth>
              <DashboardPage />
            </RequireAuth>
          </Route>
          <Route path="/dashboard/analytics">
            <RequireAuth>
              <AnalyticsPage />
            </RequireAuth>
          </Route>
          <Route path="/upload">
            <RequireAuth>
              <UploadPage />
            </RequireAuth>
          </Route>
          <Route path="/purchases/:id">
            <RequireAuth>
              <ReceiptPage />
            </RequireAuth>
          </Route>
          <Route path="/checkout/:id">
            <RequireAuth>
              <CheckoutPage />
            </RequireAuth>
          </Route>
          <Route path="/edit-video/:id">
            <RequireAuth>
              <EditVideoPage />
            </RequireAuth>
          </Route>
          <Route path="/following">
            <RequireAuth>
              <FollowingPage />
            </RequireAuth>
          </Route>
          <Route path="/subscribe/:username/:planId">
            <RequireAuth>
              <SubscribePage />
            </RequireAuth>
          </Route>
          <Route path="/subscriptions">
            <RequireAuth>
              <SubscriptionsPage />
            </RequireAuth>
          </Route>
          <Route path="/notifications">
            <RequireAuth>
              <NotificationsPage />
            </RequireAuth>
          </Route>
          <Route path="/settings/notifications">
            <RequireAuth>
              <NotificationSettingsPage />
            </RequireAuth>
          </Route>
          <Route path="/unsubscribe" component={UnsubscribePage} />
          <Route path="/email-confirmation" component={EmailConfirmationPage} />
          <Route path="/settings/profile">
            <RequireAuth>
              <ProfileSettingsPage />
            </RequireAuth>
          </Route>
          <Route path="/admin">
            <RequireAuth admin>
              <AdminPage />
            </RequireAuth>
          </Route>
          <Route component={NotFoundPage} />
        </Switch>
      </Suspense>
    </RouteErrorBoundary>
  );
}
