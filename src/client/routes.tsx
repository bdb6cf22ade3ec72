// The route table: a page for each client route of src/shared/routes.ts (the server answers 404
// for any other path). Pages are lazy-loaded so each route is its own chunk; adding a route is a
// line there and one here: '/store/:storeId': page(() => import('#client/pages/store/StorePage.tsx')).
import { lazy, useState, type ComponentType, type ReactElement } from 'react';
import { Route, Routes, matchRoutes } from 'react-router-dom';
import { PageFrame } from '#client/components/layout/PageFrame.tsx';
import { CLIENT_ROUTES, type ClientRoute } from '#shared/routes.ts';

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
  path: ClientRoute;
  element: ReactElement;
}

/** Each client route's page (src/shared/routes.ts lists the routes; this must name each once). */
const pages: Record<ClientRoute, ReactElement> = {
  '/': page(() => import('#client/pages/dashboard/DashboardPage.tsx')),
  '/store': page(() => import('#client/pages/store/StorePage.tsx')),
  '/store/:storeId': page(() => import('#client/pages/store/StorePage.tsx')),
  '/compare/:eggType': page(() => import('#client/pages/compare/ComparePage.tsx')),
  '/map': page(() => import('#client/pages/map/MapPage.tsx')),
  '/data-sources': page(() => import('#client/pages/sources/DataSourcesPage.tsx')),
  '/products/:productId/history': page(() => import('#client/pages/history/PriceHistoryPage.tsx')),
  '/preferences': page(() => import('#client/pages/preferences/PreferencesPage.tsx')),
  '/auth': page(() => import('#client/pages/auth/AuthPage.tsx')),
  '/signup': page(() => import('#client/pages/auth/SignupPage.tsx')),
  '/forgot-password': page(() => import('#client/pages/auth/ForgotPasswordPage.tsx')),
  '/reset-password': page(() => import('#client/pages/auth/ResetPasswordPage.tsx')),
  '/verify-email': page(() => import('#client/pages/auth/VerifyEmailPage.tsx')),
  '/profile': page(() => import('#client/pages/profile/ProfilePage.tsx')),
  '/notifications/subscribe': page(() => import('#client/pages/alerts/SubscribePage.tsx')),
  '/notifications/edit/:id': page(() => import('#client/pages/alerts/EditSubscriptionPage.tsx')),
  '/notifications/confirm': page(() => import('#client/pages/alerts/ConfirmSubscriptionPage.tsx')),
  '/notifications/unsubscribe': page(() => import('#client/pages/alerts/UnsubscribePage.tsx')),
  '/notifications/manage': page(() => import('#client/pages/alerts/ManageSubscriptionPage.tsx')),
  '/privacy': page(() => import('#client/pages/policies/PrivacyPolicyPage.tsx')),
  '/terms': page(() => import('#client/pages/policies/TermsOfServicePage.tsx')),
  '/admin': page(() => import('#client/pages/admin/AdminIndexPage.tsx')),
  '/admin/login': page(() => import('#client/pages/admin/AdminLoginPage.tsx')),
  '/admin/setup': page(() => import('#client/pages/admin/AdminSetupPage.tsx')),
  '/admin/reset-password': page(() => import('#client/pages/admin/AdminResetPasswordPage.tsx')),
  '/admin/dashboard': page(() => import('#client/pages/admin/AdminDashboardPage.tsx')),
  '*': page(() => import('#client/pages/not-found/NotFoundPage.tsx')),
};

export const appRoutes: readonly AppRoute[] = CLIENT_ROUTES.map((path) => ({ path, element: pages[path] }));

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
