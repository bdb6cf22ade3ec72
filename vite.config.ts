// Vite builds the client into dist/; in development it proxies the API to the web process.
// vitest reads its configuration from here too.
import { defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compressFiles } from './scripts/compress-assets.ts';

/** After each build, .br and .gz siblings of the emitted text files for @fastify/static's preCompressed. */
function precompress(): Plugin {
  return {
    name: 'eggwatch:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      await compressFiles(options.dir ?? 'dist', Object.keys(bundle));
    },
  };
}

/**
 * The 'framework' chunk (build.rolldownOptions below): what the first paint of every page needs,
 * as one chunk instead of a dozen small shared ones (fewer requests, better compression).
 */
const FRAMEWORK_PACKAGES = new Set([
  'react', 'react-dom', 'scheduler', 'react-router', 'react-router-dom', '@tanstack/query-core', '@tanstack/react-query',
  '@trpc/client', '@trpc/react-query', '@trpc/server', 'superjson', 'copy-anything', 'is-what', 'stylis', 'next-themes',
  'hoist-non-react-statics', 'react-is', '@pandacss/is-valid-prop',
]);
/** Chakra's styling system, theme and the layout and text components every page uses. */
const CHAKRA_CORE =
  /[\\/]dist[\\/]esm[\\/](?:styled-system[\\/]|theme[\\/]|[^\\/]+\.js$|components[\\/](?:absolute-center|badge|box|button|card|center|container|flex|grid|group|heading|icon|link|loader|simple-grid|skeleton|skip-nav|span|spinner|stack|text|visually-hidden)[\\/])/;

function isFrameworkModule(id: string): boolean {
  const at = id.lastIndexOf('node_modules');
  if (at < 0) return false;
  const [scope = '', name = ''] = id.slice(at + 'node_modules'.length + 1).split(/[\\/]/);
  const pkg = scope.startsWith('@') ? `${scope}/${name}` : scope;
  if (pkg === '@chakra-ui/react') return CHAKRA_CORE.test(id);
  return FRAMEWORK_PACKAGES.has(pkg) || scope === '@emotion';
}

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3001'}`;

export default defineConfig({
  plugins: [react(), precompress()],
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
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'worker/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
