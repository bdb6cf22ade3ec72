// Where the dashboard's collapsible 'Administrator Controls' section goes. It renders
// nothing unless the browser holds an administrator session and there are controls to show;
// the controls themselves (the Data Scrapers card) are passed in as children. The section's code
// (AdminControlsSection.tsx) loads only then.
import { lazy, Suspense, type ReactNode } from 'react';
import { useHasAdminSession } from '#client/lib/adminSession.ts';

const AdminControlsSection = lazy(() => import('./AdminControlsSection.tsx'));

export function AdminControlsSlot({ children }: { children?: ReactNode }) {
  const admin = useHasAdminSession();
  if (!admin || children === undefined || children === null || children === false) return null;
  return (
    <Suspense fallback={null}>
      <AdminControlsSection>{children}</AdminControlsSection>
    </Suspense>
  );
}
