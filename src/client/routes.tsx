// The route table. Pages are lazy-loaded so each route is its own chunk; adding a route
// is one line: { path: '/store/:storeId', element: page(() => import('#client/pages/store/StorePage.tsx')) }.
import { lazy, useState, type ComponentType, type ReactElement } from 'react';
import { Route, Routes, matchRoutes } from 'react-router-dom';
import { PageFrame } from '#client/components/layout/PageFrame.tsx';

type PageModule = { default: ComponentType };

/** Each page element's loader, for preloadRoute. */
const loaders = new WeakMap<ReactElement, () => Promise<PageModule>>();

/**
 * A lazily loaded page module with a default export. A page whose module has already loaded
 * (preloadRoute) renders at once; otherwise it suspends while its chunk loads. Which of the two a
 * mounted page uses is fixed when it mounts, so a later render never swaps it (and its state) out.
 */
function page(load: () => Promise<PageModule>): ReactElement {
  let loaded: ComponentType | null = null;
  let pending: Promise<PageModule> | null = null;
  const loadOnce = () =>
    (pending ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    ));
  const Lazy = lazy(loadOnce);
  function Page() {
    const [Loaded] = useState(() => loaded);
    return Loaded ? <Loaded /> : <Lazy />;
  }
  const element = <Page />;
  loaders.set(element, loadOnce);
  return element;
}

export interface AppRoute {
  path: string;
  element: ReactElement;
}

export const appRoutes: readonly AppRoute[] = [
  { path: '/', element: page(() => import('#client/pages/dashboard/DashboardPage.tsx')) },
  { path: '/store', element: page(() => import('#client/pages/store/StorePage.tsx')) },
  { path: '/store/:storeId', element: page(() => import('#client/pages/store/StorePage.tsx')) },
  { path: '/compare/:eggType', element: page(() => import('#client/pages/compare/ComparePage.tsx')) },
  { path: '/map', element: page(() => import('#client/pages/map/MapPage.tsx')) },
  { path: '/data-sources', element: page(() => import('#client/pages/sources/DataSourcesPage.tsx')) },
  { path: '/products/:productId/history', element: page(() => import('#client/pages/history/PriceHistoryPage.tsx')) },
  { path: '/preferences', element: page(() => import('#client/pages/preferences/PreferencesPage.tsx')) },
  { path: '/auth', element: page(() => import('#client/pages/auth/AuthPage.tsx')) },
  { path: '/signup', element: page(() => import('#client/pages/auth/SignupPage.tsx')) },
  { path: '/forgot-password', element: page(() => import('#client/pages/auth/ForgotPasswordPage.tsx')) },
  { path: '/reset-password', element: page(() => import('#client/pages/auth/ResetPasswordPage.tsx')) },
  { path: '/verify-email', element: page(() => import('#client/pages/auth/VerifyEmailPage.tsx')) },
  { path: '/profile', element: page(() => import('#client/pages/profile/ProfilePage.tsx')) },
  { path: '/notifications/subscribe', element: page(() => import('#client/pages/alerts/SubscribePage.tsx')) },
  {
    path: '/notifications/edit/:id',
    element: page(() => import('#client/pages/alerts/EditSubscriptionPage.tsx')),
  },
  {
    path: '/notifications/confirm',
    element: page(() => import('#client/pages/alerts/ConfirmSubscriptionPage.tsx')),
  },
  {
    path: '/notifications/unsubscribe',
    element: page(() => import('#client/pages/alerts/UnsubscribePage.tsx')),
  },
  {
    path: '/notifications/manage',
    element: page(() => import('#client/pages/alerts/ManageSubscriptionPage.tsx')),
  },
  { path: '/privacy', element: page(() => import('#client/pages/policies/PrivacyPolicyPage.tsx')) },
  { path: '/terms', element: page(() => import('#client/pages/policies/TermsOfServicePage.tsx')) },
  { path: '/admin', element: page(() => import('#client/pages/admin/AdminIndexPage.tsx')) },
  { path: '/admin/login', element: page(() => import('#client/pages/admin/AdminLoginPage.tsx')) },
  { path: '/admin/setup', element: page(() => import('#client/pages/admin/AdminSetupPage.tsx')) },
  { path: '/admin/reset-password', element: page(() => import('#client/pages/admin/AdminResetPasswordPage.tsx')) },
  { path: '/admin/dashboard', element: page(() => import('#client/pages/admin/AdminDashboardPage.tsx')) },
  { path: '*', element: page(() => import('#client/pages/not-found/NotFoundPage.tsx')) },
];

/**
 * Loads the page module of the route a pathname renders. The entry awaits it before the first
 * render: the first paint then shows the page itself, not a spinner that React would keep up for
 * a while before swapping the page in. Never rejects (a failed load is retried when rendered).
 */
export async function preloadRoute(pathname: string): Promise<void> {
  const matches = matchRoutes(
    appRoutes.map((route) => ({ path: route.path, element: route.element })),
    pathname,
  );
  const element = matches?.at(-1)?.route.element;
  const load = element ? loaders.get(element as ReactElement) : undefined;
  await load?.().catch(() => undefined);
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PageFrame />}>
        {appRoutes.map((route) => (
          <Route key={route.path} path={route.path} element={route.element} />
        ))}
      </Route>
    </Routes>
  );
}
