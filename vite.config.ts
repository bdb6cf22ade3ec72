// Vite builds the client into dist/; in development it proxies the API to the web process.
// vitest reads its configuration from here too.
import { configDefaults, defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import fs from 'node:fs';
import path from 'node:path';
import { compressFiles } from './scripts/compress-assets.ts';
import { routeChunks, type Manifest } from './scripts/route-chunks.ts';

/**
 * After each build: route-preloads.json, each route's page chunk and its imports, which the web
 * process announces in index.html (src/server/preloads.ts); and .br and .gz siblings of the
 * emitted text files for @fastify/static's preCompressed (scripts/compress-assets.ts).
 */
function postBuild(): Plugin {
  return {
    name: 'eggwatch:post-build',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      const manifest = bundle['.vite/manifest.json'];
      if (manifest?.type === 'asset') {
        const routes = routeChunks(JSON.parse(String(manifest.source)) as Manifest);
        const preloads = Object.fromEntries(routes.map((route) => [route.route, route.pageFiles]));
        fs.writeFileSync(path.join(dir, 'route-preloads.json'), `${JSON.stringify(preloads, null, 2)}\n`);
      }
      await compressFiles(dir, Object.keys(bundle));
    },
  };
}

/**
 * The 'framework' chunk (build.rolldownOptions below): what the first paint of every page needs,
 * as one chunk instead of a dozen small shared ones (fewer requests, better compression).
 */
const FRAMEWORK_PACKAGES = new Set([
  'react',
  'react-dom',
  'scheduler',
  'react-router',
  'react-router-dom',
  '@tanstack/query-core',
  '@tanstack/react-query',
  '@trpc/client',
  '@trpc/react-query',
  '@trpc/server',
  'superjson',
  'copy-anything',
  'is-what',
  'stylis',
  'next-themes',
  'hoist-non-react-statics',
  'react-is',
  '@pandacss/is-valid-prop',
]);
/** Chakra's styling system, theme and the layout and text components every page uses. */
const CHAKRA_CORE =
  /[\\/]dist[\\/]esm[\\/](?:styled-system[\\/]|theme[\\/]|[^\\/]+\.js$|components[\\/](?:absolute-center|badge|box|button|card|center|container|flex|grid|group|heading|icon|link|loader|simple-grid|skeleton|skip-nav|span|spinner|stack|text|visually-hidden)[\\/])/;

function isFrameworkModule(id: string): boolean {
  // The bundler's own runtime helpers, which every chunk imports.
  if (/rolldown[\\/:]runtime/.test(id)) return true;
  const at = id.lastIndexOf('node_modules');
  if (at < 0) return false;
  const [scope = '', name = ''] = id.slice(at + 'node_modules'.length + 1).split(/[\\/]/);
  const pkg = scope.startsWith('@') ? `${scope}/${name}` : scope;
  if (pkg === '@chakra-ui/react') return CHAKRA_CORE.test(id);
  // The Lucide icon set: every page shows some of its icons.
  if (pkg === 'react-icons') return /[\\/]lu[\\/]/.test(id);
  return FRAMEWORK_PACKAGES.has(pkg) || scope === '@emotion';
}

/**
 * The 'ui' chunk: the interactive components' machinery (Chakra's components outside the
 * framework chunk, Ark UI, zag's machines, floating-ui). No first paint of / needs it; every
 * other page does, and as one chunk it arrives in one request instead of two dozen small ones.
 */
const UI_PACKAGES = /^(?:@zag-js\/|@ark-ui\/|@floating-ui\/|@chakra-ui\/react$)/;

function isUiModule(id: string): boolean {
  const at = id.lastIndexOf('node_modules');
  if (at < 0 || isFrameworkModule(id)) return false;
  const [scope = '', name = ''] = id.slice(at + 'node_modules'.length + 1).split(/[\\/]/);
  return UI_PACKAGES.test(scope.startsWith('@') ? `${scope}/${name}` : scope);
}

/** What every test project runs with. */
const TEST_OPTIONS = {
  setupFiles: ['test/setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
};

/** Test files that run in modules of their own (the 'isolated' project below). */
const ISOLATED_TESTS = [
  'src/client/components/scrapers/ScraperStatusBox.test.tsx',
  'src/client/components/scrapers/ZipCodesField.test.tsx',
  'src/client/components/price-card/usePriceCard.test.tsx',
  'src/client/components/RelativeTime.test.tsx',
  'src/client/components/Toaster.test.ts',
  'src/client/lib/useSearchParam.test.tsx',
  'src/client/lib/storedChoice.test.tsx',
  'src/client/pages/dashboard/SummaryCards.test.tsx',
];

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3001'}`;

export default defineConfig({
  plugins: [react(), postBuild()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    manifest: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: isFrameworkModule,
            },
            {
              name: 'ui',
              test: isUiModule,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': apiTarget,
      '/trpc': apiTarget,
    },
  },
  test: {
    // Once for the run (the root's global setup): the template databases every project's files
    // clone, provided to all of them. The projects below do not extend this config, so it is not
    // run again for each.
    globalSetup: ['test/global-setup.ts'],
    // Two processes, one a core: more only queue for the CPU and PostgreSQL.
    maxWorkers: 2,
    projects: [
      {
        // Most files share their worker's modules (isolate: false): a file needs none of its own, as
        // each works in a database of its own (test/db.ts), restores any fake timers it sets, and
        // nothing mocks modules or changes process.env. Importing the server once a worker instead
        // of once a file saves a good part of the run.
        plugins: [react()],
        test: {
          ...TEST_OPTIONS,
          name: 'shared',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'worker/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ISOLATED_TESTS],
          isolate: false,
        },
      },
      {
        // Files that need fresh modules: the browser-like environment, and client modules that keep
        // state for the page's lifetime (the toaster's sink, the clock's and the viewport's
        // listeners), which a file sets up and expects to find as it left it.
        plugins: [react()],
        test: { ...TEST_OPTIONS, name: 'isolated', include: ISOLATED_TESTS, isolate: true },
      },
    ],
  },
});
