// The hostile-input section of `npm run bench:reliability`: the property campaign of
// `npm run bench:hostile` (src/server/hostile.test.ts, src/server/email/escaping.test.ts,
// src/server/sessions-abuse.test.ts) at HOSTILE_RUNS runs per route (60 unless set). It runs in
// vitest, in a process of its own, on test databases it makes and drops itself on the test
// database server (TEST_DATABASE_URL, else an embedded one); eggwatch_bench is not touched.
import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import type { SectionContext, SectionResult } from './types.ts';

const FILES = ['src/server/hostile.test.ts', 'src/server/email/escaping.test.ts', 'src/server/sessions-abuse.test.ts'];

export async function run(ctx: SectionContext): Promise<SectionResult> {
  const runs = ctx.env.HOSTILE_RUNS ?? '60';
  ctx.log(`vitest ${FILES.join(' ')} at ${runs} runs per route`);
  const started = performance.now();
  const output: string[] = [];
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--reporter=dot', ...FILES], {
      cwd: ctx.root,
      env: { ...ctx.env, HOSTILE_RUNS: runs, ...(ctx.adminUrl ? { TEST_DATABASE_URL: ctx.adminUrl } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => output.push(chunk.toString());
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (status) => resolve(status ?? 1));
  });
  const text = stripVTControlCharacters(output.join(''));
  const count = (label: string) =>
    Number(new RegExp(`Tests\\s+(?:(\\d+) failed \\| )?(\\d+) passed`).exec(text)?.[label === 'failed' ? 1 : 2] ?? 0);
  const seconds = (performance.now() - started) / 1000;
  const failures =
    code === 0
      ? []
      : [
          `the hostile-input campaign failed (vitest exit ${code}):\n${text
            .split('\n')
            .filter((line) => /FAIL|Error|Counterexample|expected/.test(line))
            .slice(0, 40)
            .join('\n')}`,
        ];
  return {
    failures,
    tables: [
      {
        title: 'Hostile input',
        headers: ['runs per route', 'tests passed', 'tests failed', 'seconds'],
        rows: [[runs, String(count('passed')), String(count('failed')), seconds.toFixed(0)]],
      },
    ],
    notes: [
      'Every route of the web process and every tRPC procedure, as a visitor, a shopper and an admin: no 5xx, a message on every 4xx, nothing written by a refused request, no prototype pollution; emails escape what users and retailers supply; sessions and rate limits hold.',
    ],
    data: { runs: Number(runs), passed: count('passed'), failed: count('failed'), seconds, exitCode: code },
  };
}
