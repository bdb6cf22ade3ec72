// ESLint: the code rules and the layer rules (docs/decisions/012-layers-and-lint.md). `npm run lint`
// runs it with Prettier's check, and `npm test` runs that first.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Tests beside the code they check (src/, worker/) and in test/. */
const TESTS = ['**/*.test.ts', '**/*.test.tsx'];

/** The app's layers: src/ and worker/ (the rules below set their tests aside). */
const LAYERED = ['src/**/*.{ts,tsx}', 'worker/**/*.ts'];

/** The folders of code, each a layer; a file outside them all is one no app code may import. */
const LAYERS = [
  { type: 'shared', pattern: 'src/shared' },
  { type: 'client', pattern: 'src/client' },
  { type: 'server', pattern: 'src/server' },
  { type: 'worker', pattern: 'worker' },
  { type: 'test', pattern: 'test' },
  { type: 'bench', pattern: 'bench' },
  { type: 'e2e', pattern: 'e2e' },
  { type: 'scripts', pattern: 'scripts' },
].map((layer) => ({ partialMatch: false, ...layer }));

const layer = (...types) => ({ element: { types } });
const npmPackages = { to: { module: { origin: 'external' } } };
const packages = { to: { module: { origin: ['external', 'core'] } } };

/**
 * What each layer of the app may import: the floors below it and packages (Node's own modules not
 * in the browser's code, the client's and src/shared's). The client reaches the server through the
 * router's type alone, in the one file that builds the tRPC client.
 */
const LAYER_POLICIES = [
  { from: layer('shared'), allow: [npmPackages, { to: layer('shared') }] },
  { from: layer('client'), allow: [npmPackages, { to: layer('client', 'shared') }] },
  {
    from: { element: { type: 'client', fileInternalPath: 'lib/trpc.ts' } },
    allow: {
      to: { element: { type: 'server', fileInternalPath: 'routers/_app.ts' } },
      dependency: { kind: 'type' },
    },
  },
  { from: layer('server'), allow: [packages, { to: layer('server', 'shared') }] },
  { from: layer('worker'), allow: [packages, { to: layer('worker', 'server', 'shared') }] },
];

export default defineConfig(
  {
    ignores: ['dist/', '.data/', 'test-results/', 'playwright-report/', 'bench/results/', 'bench/frontend-baseline/'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // A leading underscore names what is left out on purpose (an argument a signature requires);
      // a rest sibling leaves out the properties it names.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Playwright reads a hook's or a fixture's first parameter as the fixtures it asks for: an
    // object pattern, empty when it asks for none.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }] },
  },
  {
    // The Rules of Hooks. The plugin's other rules check code for the React Compiler, which this
    // build does not use (and they are most of the lint's time: docs/decisions/012-layers-and-lint.md).
    files: ['src/client/**/*.tsx', 'src/client/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // The layers (docs/decisions/012-layers-and-lint.md): each import is resolved to its file
    // (package.json "imports" aliases and relative paths alike) and checked against the policies.
    files: LAYERED,
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: 'tsconfig.json' } },
      'boundaries/elements': LAYERS,
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
    },
  },
  {
    files: LAYERED,
    ignores: TESTS,
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          // Packages and project files outside every layer (a tool's configuration) are checked too.
          checkAllOrigins: true,
          checkUnknownLocals: true,
          policies: LAYER_POLICIES,
          message:
            "{{from.type}} may not import {{dependency.source}}. src/shared imports only src/shared and npm packages; src/client only itself, src/shared, npm packages and, in lib/trpc.ts, the router's type; src/server only itself, src/shared and packages; worker/ only itself, src/server, src/shared and packages; nothing of the app imports test/, bench/, scripts/, e2e/ or a tool's configuration (docs/decisions/012-layers-and-lint.md)",
        },
      ],
    },
  },
  {
    // A test may assemble several layers to check that they fit (the web process and the worker,
    // the server's initial data and the client's cache) and uses test/'s helpers; the benchmarks'
    // own tests live in test/.
    files: TESTS.flatMap((glob) => [`src/${glob}`, `worker/${glob}`]),
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [{ from: layer('shared', 'client', 'server', 'worker'), disallow: { to: layer('bench') } }],
          message: 'A test in src/ or worker/ may not import bench/: the benchmarks are tested from test/',
        },
      ],
    },
  },
  {
    // The environment is parsed once, in src/server/env.ts; everything else receives what it needs.
    // (Tests, test/, bench/, e2e/, scripts/ and the tools' configurations set up the processes
    // they start and read it themselves.)
    files: [...LAYERED, 'server.ts'],
    ignores: [...TESTS, 'src/server/env.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Only src/server/env.ts reads process.env: take the value from its parsed env.',
        },
      ],
      'no-restricted-imports': [
        'error',
        ...['process', 'node:process'].map((name) => ({
          name,
          importNames: ['env'],
          message: 'Only src/server/env.ts reads process.env: take the value from its parsed env.',
        })),
      ],
    },
  },
);
