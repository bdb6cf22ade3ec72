import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { preloadRoute } from './routes.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

/** How long the first render waits for the page's chunk before showing the frame with a spinner. */
const PAGE_WAIT_MS = 1500;

function render(): void {
  // A transition renders in slices that give the main thread back every few milliseconds, so the
  // first render of the app is not one long task that keeps a phone from responding.
  startTransition(() => {
    createRoot(root!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}

// index.html preloads the route's page chunk along with the entry (src/server/preloads.ts), so it
// is normally here already: render the page in the first paint rather than a spinner first.
void Promise.race([
  preloadRoute(window.location.pathname),
  new Promise((resolve) => setTimeout(resolve, PAGE_WAIT_MS)),
]).then(render);
