// index.html per client route, with modulepreload links for the route's page chunk and its imports
// (dist/route-preloads.json, written by the build from the route table and the Vite manifest:
// scripts/route-chunks.ts). Without them the browser learns which page chunks it needs only once
// the entry script has run, one network round trip after it could have started.
import fs from 'node:fs';
import path from 'node:path';
import { matchRoute } from '#shared/routes.ts';

export { matchRoute };

export type RoutePreloads = Record<string, string[]>;

export function readRoutePreloads(distDir: string): RoutePreloads | null {
  const file = path.join(distDir, 'route-preloads.json');
  if (!fs.existsSync(file)) return null;
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as RoutePreloads;
  } catch {
    return null;
  }
}

/** Returns index.html for a pathname, with its route's preloads; one Buffer per route. */
export function createIndexHtml(indexHtml: Buffer, preloads: RoutePreloads | null): (pathname: string) => Buffer {
  if (!preloads) return () => indexHtml;
  const patterns = Object.keys(preloads);
  const html = indexHtml.toString('utf8');
  const byRoute = new Map<string, Buffer>();
  return (pathname) => {
    const route = matchRoute(patterns, pathname);
    const files = route ? preloads[route] : undefined;
    if (!route || !files?.length || !html.includes('</head>')) return indexHtml;
    let page = byRoute.get(route);
    if (!page) {
      const links = files
        .filter((file) => !html.includes(`/${file}"`))
        .map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">\n`)
        .join('');
      page = Buffer.from(html.replace('</head>', `${links}  </head>`));
      byRoute.set(route, page);
    }
    return page;
  };
}
