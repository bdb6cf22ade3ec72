// send_email through graphile-worker's run-once API: the local transport, and Resend reached as a
// local HTTP server standing in for its API.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOnce } from 'graphile-worker';
import { createTestDatabase, type TestDatabase } from '../test/db.ts';
import { quietLogger } from '../src/server/migrate.ts';
import { queueEmail } from '../src/server/email/outbox.ts';
import { taskList } from './tasks.ts';
import type { WorkerDeps } from './deps.ts';

let db: TestDatabase;
let resendApi: http.Server;
const received: Array<{ auth: string | undefined; body: Record<string, unknown> }> = [];
let failNext = false;

beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
  resendApi = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      received.push({ auth: req.headers.authorization, body: JSON.parse(raw) as Record<string, unknown> });
      res.setHeader('content-type', 'application/json');
      if (failNext) {
        failNext = false;
        res.statusCode = 422;
        res.end(JSON.stringify({ name: 'validation_error', message: 'Invalid `to` field.', statusCode: 422 }));
        return;
      }
      res.end(JSON.stringify({ id: 'resend-message-1' }));
    });
  });
  await new Promise<void>((resolve) => resendApi.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  resendApi.close();
  await db.drop();
});

async function run(email: WorkerDeps['email']) {
  await runOnce({ connectionString: db.url, taskList: taskList({ sql: db.sql, email }), logger: quietLogger });
}

const outbox = (id: number) =>
  db.sql<
    { status: string; provider_id: string | null; error: string | null }[]
  >`select status, provider_id, error from email_outbox where id = ${id}`;

describe('send_email', () => {
  it('queues the job with the outbox row, in the same transaction', async () => {
    await db.sql
      .begin(async (tx) => {
        await queueEmail(tx, { to: 'rolled@back.test', subject: 'never', html: '<p>x</p>', text: 'x' });
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(await db.sql`select 1 from email_outbox where to_address = 'rolled@back.test'`).toHaveLength(0);
    expect(await db.sql`select 1 from graphile_worker.jobs where task_identifier = 'send_email'`).toHaveLength(0);
  });

  it('without a Resend key keeps the email in the outbox as logged, once', async () => {
    const id = await queueEmail(db.sql, { to: 'local@example.test', subject: 'Hello', html: '<p>Hi</p>', text: 'Hi' });
    await run({ from: 'EggWatch <a@b.test>' });
    expect((await outbox(id))[0]).toMatchObject({ status: 'logged' });
  });

  it('with a Resend key sends through the API and records the provider id; a retried job sends nothing twice', async () => {
    const id = await queueEmail(db.sql, {
      to: 'real@example.test',
      subject: 'Price alert',
      html: '<p>Down</p>',
      text: 'Down',
      headers: { 'List-Unsubscribe': '<https://x.test/u>' },
    });
    const email = {
      from: 'EggWatch <a@b.test>',
      resendApiKey: 're_test_key',
      resendBaseUrl: `http://127.0.0.1:${(resendApi.address() as AddressInfo).port}`,
    };
    await run(email);
    expect((await outbox(id))[0]).toMatchObject({ status: 'sent', provider_id: 'resend-message-1' });
    expect(received.at(-1)).toMatchObject({
      auth: 'Bearer re_test_key',
      body: { to: 'real@example.test', subject: 'Price alert', from: 'EggWatch <a@b.test>' },
    });
    const count = received.length;
    await db.sql`select graphile_worker.add_job('send_email', json_build_object('id', ${id}::int))`;
    await run(email);
    expect(received.length).toBe(count);
  });

  it('a refused email stays pending with its error for a retry', async () => {
    const id = await queueEmail(db.sql, { to: 'bad@example.test', subject: 'x', html: 'x', text: 'x' });
    failNext = true;
    await run({
      from: 'EggWatch <a@b.test>',
      resendApiKey: 're_test_key',
      resendBaseUrl: `http://127.0.0.1:${(resendApi.address() as AddressInfo).port}`,
    });
    expect((await outbox(id))[0]).toMatchObject({ status: 'pending', error: expect.stringContaining('Invalid') });
  });
});
