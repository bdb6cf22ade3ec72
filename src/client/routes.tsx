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
