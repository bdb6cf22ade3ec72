// A real worker process whose database connections are all cut (pg_terminate_backend, as a
// database restart or fail-over does) while it sends emails: the process keeps running, starts its
// job runner again, releases the jobs it held, and every email is sent exactly once.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { inject } from 'vitest';
import { queueEmail } from '#server/email/outbox.ts';
import { createTestDatabase, type TestDatabase } from '../test/db.ts';
import { until } from '../test/until.ts';
import { exited, killWorkerProcesses, startWorkerProcess } from '../test/worker-process.ts';

const EMAILS = 40;

let db: TestDatabase;
const started: ChildProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
});
afterAll(async () => {
  killWorkerProcesses(started);
  await db.drop();
});

describe('a worker whose database connections are cut', () => {
  it('keeps running, recovers the jobs it held and sends every email once', async () => {
    const ids: number[] = [];
    for (let i = 0; i < EMAILS; i++)
      ids.push(
        await queueEmail(db.sql, { to: `cut-${i}@example.test`, subject: `Cut ${i}`, html: '<p>x</p>', text: 'x' }),
      );
    const worker = startWorkerProcess(db.url, { WORKER_CONCURRENCY: '4' }, started);
    const { child } = worker;
    const logged = async () =>
      (await db.sql<{ n: number }[]>`select count(*)::int as n from email_outbox where status = 'logged'`)[0]!.n;
    await until(async () => (await logged()) >= 1, 60_000, 'a first email');
    // Cut every connection of the worker to its database, a few times, while it works.
    const admin = postgres(inject('adminUrl'), { max: 1, onnotice: () => {} });
    const name = new URL(db.url).pathname.slice(1);
    try {
      for (let i = 0; i < 5; i++) {
        await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid() and application_name <> 'vitest-keep'`;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    } finally {
      await admin.end();
    }
    // Every email sent, and every job done: a job whose completion was cut off runs again (and
    // finds its email already sent) once the database answers.
    const jobsLeft = async () =>
      (
        await db.sql<
          { n: number }[]
        >`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'send_email'`
      )[0]!.n;
    await until(
      async () => ((await logged()) === EMAILS && (await jobsLeft()) === 0) || child.exitCode !== null,
      90_000,
      'every email and job',
    ).catch(async (error: unknown) => {
      // What was left, and what the worker said, so a failure can be read from CI's output alone.
      const left = await db.sql`
        select id, attempts, max_attempts, run_at, locked_at, locked_by, last_error
        from graphile_worker.jobs where task_identifier = 'send_email' order by id`;
      throw new Error(
        `${String(error)}\n${await logged()} of ${EMAILS} emails logged; jobs left: ${JSON.stringify(left, null, 1)}\nworker output (last 4000 characters):\n${worker.log().slice(-4000)}`,
      );
    });
    expect(child.exitCode, worker.log().slice(-3000)).toBeNull();
    expect(child.signalCode).toBeNull();
    const [rows] = await db.sql<{ logged: number; jobs: number }[]>`
      select (select count(*)::int from email_outbox where status = 'logged' and id = any(${ids})) as logged,
             (select count(*)::int from graphile_worker.jobs where task_identifier = 'send_email') as jobs`;
    expect(rows).toEqual({ logged: EMAILS, jobs: 0 });
    child.kill('SIGTERM');
    await exited(child);
    expect(worker.log()).not.toMatch(/Unhandled rejection/);
    // Whether a cut lands while graphile-worker records a job (which makes the runner start again)
    // or only fails a task (retried as usual) depends on timing; every restart must say what it recovered.
    const restarts = worker.log().match(/Lost the database \(/g)?.length ?? 0;
    expect(
      worker.log().match(/Database back: recovered \d+ job\(s\) the previous job runner still held/g)?.length ?? 0,
    ).toBe(restarts);
  }, 150_000);
});
