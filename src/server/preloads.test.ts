import { describe, expect, it } from 'vitest';
import { createIndexHtml, matchRoute } from './preloads.ts';

const PATTERNS = [
  '/',
  '/store',
  '/store/:storeId',
  '/compare/:eggType',
  '/admin',
  '/admin/login',
  '/admin/:section',
  '*',
];

describe('matchRoute', () => {
  it('picks the route React Router renders', () => {
    expect(matchRoute(PATTERNS, '/')).toBe('/');
    expect(matchRoute(PATTERNS, '/store')).toBe('/store');
    expect(matchRoute(PATTERNS, '/store/')).toBe('/store');
    expect(matchRoute(PATTERNS, '/store/walmart')).toBe('/store/:storeId');
    expect(matchRoute(PATTERNS, '/Compare/organic')).toBe('/compare/:eggType');
    expect(matchRoute(PATTERNS, '/compare/organic/extra')).toBe('*');
    expect(matchRoute(PATTERNS, '/nowhere')).toBe('*');
  });

  it('prefers a static segment to a parameter', () => {
    expect(matchRoute(PATTERNS, '/admin/login')).toBe('/admin/login');
    expect(matchRoute(PATTERNS, '/admin/setup')).toBe('/admin/:section');
  });

  it('is null without a catch-all', () => {
    expect(matchRoute(['/'], '/other')).toBeNull();
  });
});

describe('createIndexHtml', () => {
  const html = Buffer.from(
    '<html><head>\n    <script type="module" src="/assets/index-1.js"></script>\n    <link rel="modulepreload" crossorigin href="/assets/framework-1.js">\n  </head><body></body></html>',
  );

  it("adds the route's page chunks as modulepreload links, once each", () => {
    const indexHtmlFor = createIndexHtml(html, {
      '/': ['assets/Dashboard-1.js', 'assets/framework-1.js'],
      '*': ['assets/NotFound-1.js'],
    });
    const home = indexHtmlFor('/').toString();
    expect(home).toContain('<link rel="modulepreload" crossorigin href="/assets/Dashboard-1.js">');
    expect(home.match(/framework-1\.js/g)).toHaveLength(1);
    expect(home.indexOf('Dashboard-1.js')).toBeLessThan(home.indexOf('</head>'));
    expect(indexHtmlFor('/missing').toString()).toContain('/assets/NotFound-1.js');
    expect(indexHtmlFor('/')).toBe(indexHtmlFor('/'));
  });

  it('leaves index.html as built without preloads', () => {
    expect(createIndexHtml(html, null)('/')).toBe(html);
  });
});
