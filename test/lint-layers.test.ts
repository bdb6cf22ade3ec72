// The layer rules of eslint.config.js (docs/decisions/012-layers-and-lint.md), run through ESLint
// on small sources placed at each layer's paths: every crossing is refused, with the rule that
// refuses it, and the imports each layer may make pass.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: ROOT });

const LAYERS = 'boundaries/dependencies';
const ENV = 'no-restricted-properties';
/** The rules under test (the probes' unused imports are another rule's business). */
const RULES = new Set([LAYERS, ENV, 'no-restricted-imports']);

/**
 * The layer rules that refuse `code` at `file` (a path from the project's root; the file need not
 * exist), and any error that kept ESLint from reading it.
 */
async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: path.join(ROOT, file) });
  return result!.messages
    .filter((message) => message.fatal || RULES.has(message.ruleId ?? ''))
    .map((message) => message.ruleId ?? message.message);
}

describe('src/shared imports nothing of the app', () => {
  it.each([
    ["import { env } from '#server/env.ts';", 'an alias of the server'],
    ["import type { AppRouter } from '#server/routers/_app.ts';", 'a type of the server'],
    ["import { trpc } from '#client/lib/trpc.ts';", 'the client'],
    ["import { scrapeConfig } from '#worker/deps.ts';", 'the worker'],
    ["import { openSql } from '../server/db.ts';", 'a relative path out of src/shared'],
    ["import { createTestDatabase } from '../../test/db.ts';", 'test/'],
    ["export { STORE_IDS } from '../../bench/run.ts';", 'a re-export from bench/'],
    ["import fs from 'node:fs';", "Node's own modules (src/shared runs in the browser too)"],
  ])('%s (%s) is refused', async (code) => {
    expect(await refusals('src/shared/lint-probe.ts', code)).toEqual([LAYERS]);
  });

  it('imports src/shared and packages', async () => {
    const code =
      "import { z } from 'zod';\nimport { STORE_IDS } from './vocabulary.ts';\nimport { plural } from '#shared/format.ts';";
    expect(await refusals('src/shared/lint-probe.ts', code)).toEqual([]);
  });
});

describe('src/client imports no server or worker module', () => {
  it.each([
    ["import { appRouter } from '#server/routers/_app.ts';", 'src/client/lib/trpc.ts', 'the router itself'],
    ["import type { Sql } from '#server/db.ts';", 'src/client/lib/trpc.ts', 'another type of the server'],
    [
      "import type { AppRouter } from '#server/routers/_app.ts';",
      'src/client/pages/lint-probe.tsx',
      'the router type outside lib/trpc.ts',
    ],
    ["import { DEFAULT_ALERTS } from '#worker/deps.ts';", 'src/client/pages/lint-probe.tsx', 'the worker'],
    [
      "import { openSql } from '../../server/db.ts';",
      'src/client/pages/lint-probe.tsx',
      'a relative path into the server',
    ],
    [
      "const deps = import('../../../../worker/deps.ts');",
      'src/client/pages/x/lint-probe.tsx',
      'a dynamic import of the worker',
    ],
  ])('%s in %s (%s) is refused', async (code, file) => {
    expect(await refusals(file, code)).toEqual([LAYERS]);
  });

  it('takes the router type in lib/trpc.ts, and the client and src/shared anywhere', async () => {
    expect(
      await refusals('src/client/lib/trpc.ts', "import type { AppRouter } from '#server/routers/_app.ts';"),
    ).toEqual([]);
    const code = "import { trpc } from '#client/lib/trpc.ts';\nimport { STORE_IDS } from '#shared/vocabulary.ts';";
    expect(await refusals('src/client/pages/lint-probe.tsx', code)).toEqual([]);
  });
});

describe('src/server imports nothing of the worker or the client, the worker nothing of the client', () => {
  it.each([
    ["import { scrapeConfig } from '#worker/deps.ts';", 'an alias of the worker'],
    ["import { scrapeConfig } from '../../worker/deps.ts';", 'a relative path into the worker'],
    ["import { trpc } from '#client/lib/trpc.ts';", 'the client'],
  ])('%s (%s) is refused', async (code) => {
    expect(await refusals('src/server/lint-probe.ts', code)).toEqual([LAYERS]);
  });

  it('imports the server and src/shared; the worker imports the server', async () => {
    const code = "import { openSql } from './db.ts';\nimport { DEFAULT_SCRAPE_CONFIG } from '#shared/scrape.ts';";
    expect(await refusals('src/server/lint-probe.ts', code)).toEqual([]);
    expect(await refusals('worker/lint-probe.ts', "import { openSql } from '#server/db.ts';")).toEqual([]);
    expect(await refusals('worker/lint-probe.ts', "import { trpc } from '#client/lib/trpc.ts';")).toEqual([LAYERS]);
  });
});

describe('only src/server/env.ts reads process.env', () => {
  it.each([
    ['src/server/lint-probe.ts', 'export const port = process.env.PORT;'],
    ['src/server/lint-probe.ts', 'export const { PORT } = process.env;'],
    ['src/shared/lint-probe.ts', "export const port = process.env['PORT'];"],
    ['worker/lint-probe.ts', 'const { env } = process;\nexport const port = env.PORT;'],
    ['server.ts', 'export const port = process.env.PORT;'],
  ])('%s: %s is refused', async (file, code) => {
    expect(await refusals(file, code)).toEqual([ENV]);
  });

  it("refuses node:process's env too", async () => {
    expect(await refusals('src/server/lint-probe.ts', "import { env } from 'node:process';\nexport { env };")).toEqual([
      'no-restricted-imports',
    ]);
  });

  it('is read by env.ts, and by the tests, which set up the processes they start', async () => {
    expect(await refusals('src/server/env.ts', 'export const port = process.env.PORT;')).toEqual([]);
    expect(await refusals('worker/lint-probe.test.ts', 'export const port = process.env.PORT;')).toEqual([]);
  });
});

describe('nothing in src/ or worker/ imports bench/ or test/', () => {
  it.each([
    ['src/server/lint-probe.ts', "import { createTestDatabase } from '../../test/db.ts';"],
    ['worker/lint-probe.ts', "import { startStandIn } from '../test/retailers/server.ts';"],
    ['worker/coverage/lint-probe.ts', "const bench = import('../../bench/coverage-discovery.ts');"],
    ['src/server/lint-probe.ts', "import { compressAssets } from '../../scripts/compress-assets.ts';"],
    ['src/server/lint-probe.test.ts', "import { pathOwnHeaders } from '../../bench/reliability/load.ts';"],
    ['worker/coverage/lint-probe.test.ts', "const bench = import('../../bench/coverage-discovery.ts');"],
  ])('%s: %s is refused', async (file, code) => {
    expect(await refusals(file, code)).toEqual([LAYERS]);
  });

  it('nor a project file outside the layers', async () => {
    expect(await refusals('src/server/lint-probe.ts', "import config from '../../vite.config.ts';")).toEqual([LAYERS]);
  });

  it('lets a test in src/ or worker/ use test/ and check several layers together', async () => {
    const code =
      "import { createTestDatabase } from '../../test/db.ts';\nimport { sendEmail } from '../../worker/tasks/send_email.ts';";
    expect(await refusals('src/server/lint-probe.test.ts', code)).toEqual([]);
  });
});
