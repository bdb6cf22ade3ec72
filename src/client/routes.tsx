// The route table (SPEC §2). Pages are lazy-loaded so each route is its own chunk; adding a route
// is one line: { path: '/store/:storeId', element: page(() => import('#client/pages/store/StorePage.tsx')) }.
import { lazy, type ComponentType, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { PageFrame } from '#client/components/layout/PageFrame.tsx';

/** A lazily loaded page module with a default export. */
function page(load: () => Promise<{ default: ComponentType }>): ReactNode {
  const Page = lazy(load);
  return <Page />;
}

export interface AppRoute {
  path: string;
  element: ReactNode;
}

export const appRoutes: readonly AppRoute[] = [
  { path: '/', element: page(() => import('#client/pages/dashboard/DashboardPage.tsx')) },
  { path: '/store', element: page(() => import('#client/pages/store/StorePage.tsx')) },
  { path: '/store/:storeId', element: page(() => import('#client/pages/store/StorePage.tsx')) },
  { path: '/compare/:eggType', element: page(() => import('#client/pages/compare/ComparePage.tsx')) },
  { path: '/preferences', element: page(() => import('#client/pages/preferences/PreferencesPage.tsx')) },
  { path: '/auth', element: page(() => import('#client/pages/auth/AuthPage.tsx')) },
  { path: '/signup', element: page(() => import('#client/pages/auth/SignupPage.tsx')) },
  { path: '/forgot-password', element: page(() => import('#client/pages/auth/ForgotPasswordPage.tsx')) },
  { path: '/reset-password', element: page(() => import('#client/pages/auth/ResetPasswordPage.tsx')) },
  { path: '/verify-email', element: page(() => import('#client/pages/auth/VerifyEmailPage.tsx')) },
  { path: '/profile', element: page(() => import('#client/pages/profile/ProfilePage.tsx')) },
  { path: '/admin', element: page(() => import('#client/pages/admin/AdminIndexPage.tsx')) },
  { path: '/admin/login', element: page(() => import('#client/pages/admin/AdminLoginPage.tsx')) },
  { path: '/admin/setup', element: page(() => import('#client/pages/admin/AdminSetupPage.tsx')) },
  { path: '/admin/reset-password', element: page(() => import('#client/pages/admin/AdminResetPasswordPage.tsx')) },
  { path: '/admin/dashboard', element: page(() => import('#client/pages/admin/AdminDashboardPage.tsx')) },
  { path: '*', element: page(() => import('#client/pages/not-found/NotFoundPage.tsx')) },
];

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
