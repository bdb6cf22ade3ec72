// The app's one toaster (SPEC §9): at most 5 toasts at once, 5 s by default, and a dismissed
// toast is removed after 1 s so its exit animation can finish. `toaster` (the store pages call)
// is small; its rendering (zag's toast machines, ToasterView.tsx) is not needed for the first
// paint, so it loads when the page is idle or when the first toast is created.
import { createToaster } from '@chakra-ui/react';
import { lazy, Suspense, useEffect } from 'react';
import { useLoadWhenIdle } from '#client/lib/idle.ts';

export const toaster = createToaster({
  placement: 'bottom-end',
  max: 5,
  duration: 5000,
  removeDelay: 1000,
  pauseOnPageIdle: true,
});

const ToasterView = lazy(() => import('./ToasterView.tsx'));

export function Toaster() {
  const [ready, load] = useLoadWhenIdle();
  useEffect(() => {
    if (ready) return undefined;
    if (toaster.getVisibleToasts().length > 0) load();
    return toaster.subscribe(load);
  }, [ready, load]);
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      <ToasterView />
    </Suspense>
  );
}
