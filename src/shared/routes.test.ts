import { describe, expect, it } from 'vitest';
import { CLIENT_ROUTES, isClientRoute, matchRoute } from './routes.ts';

describe('client routes', () => {
  it('match a pathname as the client router would, the most specific first', () => {
    expect(matchRoute(CLIENT_ROUTES, '/store/aldi')).toBe('/store/:storeId');
    expect(matchRoute(CLIENT_ROUTES, '/admin/login')).toBe('/admin/login');
    expect(matchRoute(CLIENT_ROUTES, '/Compare/organic')).toBe('/compare/:eggType');
    expect(matchRoute(CLIENT_ROUTES, '/no/such/page')).toBe('*');
  });

  it('tell a page from the not-found page', () => {
    expect(isClientRoute('/')).toBe(true);
    expect(isClientRoute('/products/4/history')).toBe(true);
    expect(isClientRoute('/no/such/page')).toBe(false);
    expect(isClientRoute('/store/aldi/extra')).toBe(false);
  });
});
