// Which JavaScript files each client route needs before its page can render, from the route table
// (src/client/routes.tsx) and the Vite manifest (dist/.vite/manifest.json): the entry chunk and
// its static imports (the modulepreload links of index.html), then the route's lazily loaded page
// chunk and its static imports. bench/bundle.ts measures them; the build writes each route's page
// files to dist/route-preloads.json so the web process can announce them in index.html
// (src/server/preloads.ts) instead of the browser discovering them only after the entry has run.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ROUTES_FILE = path.join(ROOT, 'src/client/routes.tsx');

export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

export interface RouteChunks {
  /** The route's path as in the route table ('*' for the not-found page). */
  route: string;
  /** Every JavaScript file (relative to dist/) needed before the page renders, entry first. */
  files: string[];
  /** Those of `files` that index.html does not already load: the page chunk and its imports. */
  pageFiles: string[];
}

/** The route table's paths and page modules, read from the source (no React needed). */
export function readRouteTable(routesFile = ROUTES_FILE): Array<{ route: string; module: string }> {
  // Line comments may show example routes; only the code counts.
  const source = fs.readFileSync(routesFile, 'utf8').replace(/^\s*\/\/.*$/gm, '');
  const pattern = /'([^']+)'\s*:\s*page\(\s*\(\)\s*=>\s*import\(\s*'([^']+)'\s*\)\s*\)/g;
  const routes: Array<{ route: string; module: string }> = [];
  for (const match of source.matchAll(pattern)) {
    const [, route, specifier] = match as unknown as [string, string, string];
    routes.push({ route, module: specifier.replace(/^#client\//, 'src/client/') });
  }
  if (routes.length === 0) throw new Error(`no routes found in ${routesFile}`);
  return routes;
}

export function readManifest(distDir: string): Manifest {
  const file = path.join(distDir, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build with build.manifest enabled (npx vite build)`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

/** A chunk and everything it imports statically, depth first, each once. */
function staticClosure(manifest: Manifest, key: string, seen: Set<string>, files: string[]): void {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`manifest has no chunk ${key}`);
  if (chunk.file.endsWith('.js')) files.push(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, seen, files);
}

export function routeChunks(manifest: Manifest, routes = readRouteTable()): RouteChunks[] {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('manifest has no entry chunk');
  return routes.map(({ route, module }) => {
    if (!manifest[module])
      throw new Error(`manifest has no chunk for ${module} (route ${route}): is the build up to date?`);
    const seen = new Set<string>();
    const files: string[] = [];
    staticClosure(manifest, entryKey, seen, files);
    const entryCount = files.length;
    staticClosure(manifest, module, seen, files);
    return { route, files, pageFiles: files.slice(entryCount) };
  });
}
