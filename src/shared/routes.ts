// The app's client routes, one list for the client and the server: the client renders a page
// for each (src/client/routes.tsx, whose table must name exactly these), and the server answers
// a path that matches none with HTTP 404 and the app's not-found page ('*').
export const CLIENT_ROUTES = [
  '/',
  '/store',
  '/store/:storeId',
  '/compare/:eggType',
  '/map',
  '/data-sources',
  '/products/:productId/history',
  '/preferences',
  '/auth',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
  '/profile',
  '/notifications/subscribe',
  '/notifications/edit/:id',
  '/notifications/confirm',
  '/notifications/unsubscribe',
  '/notifications/manage',
  '/privacy',
  '/terms',
  '/admin',
  '/admin/login',
  '/admin/setup',
  '/admin/reset-password',
  '/admin/dashboard',
  '*',
] as const;

export type ClientRoute = (typeof CLIENT_ROUTES)[number];

const segmentsOf = (pathname: string) => pathname.split('/').filter(Boolean);

/**
 * The route pattern React Router would render for a pathname: static segments match without
 * regard to case, ':name' matches any one segment, '*' anything; the pattern with the most static
 * segments wins. Null when nothing matches (no '*' route).
 */
export function matchRoute(patterns: readonly string[], pathname: string): string | null {
  const parts = segmentsOf(pathname);
  let best: { pattern: string; score: number } | null = null;
  for (const pattern of patterns) {
    if (pattern === '*') continue;
    const wanted = segmentsOf(pattern);
    if (wanted.length !== parts.length) continue;
    let score = 0;
    const matches = wanted.every((segment, i) => {
      if (segment.startsWith(':')) return parts[i] !== '';
      score++;
      return segment.toLowerCase() === parts[i]!.toLowerCase();
    });
    if (matches && (!best || score > best.score)) best = { pattern, score };
  }
  if (best) return best.pattern;
  return patterns.includes('*') ? '*' : null;
}

/** Whether the client has a page for a pathname other than its not-found page. */
export function isClientRoute(pathname: string): boolean {
  const route = matchRoute(CLIENT_ROUTES, pathname);
  return route !== null && route !== '*';
}
