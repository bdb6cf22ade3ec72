// The retention the Privacy Policy states, as the worker's purge tasks enforce it, against a real
// database through graphile-worker's run-once API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOnce } from 'graphile-worker';
import { createTestDatabase, type TestDatabase } from '../test/db.ts';
import { quietLogger } from '../src/server/migrate.ts';
import {
  EMAIL_OUTBOX_RETENTION_DAYS,
  EXPIRED_TOKEN_RETENTION_HOURS,
  RATE_LIMIT_COUNTER_RETENTION_HOURS,
  STOPPED_GUEST_ALERT_RETENTION_DAYS,
} from '../src/shared/privacy.ts';
import { CRONTAB, taskList } from './tasks.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
});
afterAll(() => db.drop());

async function run(task: string) {
  await db.sql`select graphile_worker.add_job(${task}, '{}'::json)`;
  await runOnce({
    connectionString: db.url,
    taskList: taskList({ sql: db.sql, email: { from: 'EggWatch <test@eggwatch.local>' } }),
    logger: quietLogger,
  });
  const [failed] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from graphile_worker.jobs where task_identifier = ${task}`;
  expect(failed!.n, `${task} left no job behind (it did not fail)`).toBe(0);
}

const daysAgo = (days: number) => db.sql`now() - ${days} * interval '1 day'`;

describe('email_outbox__purge', () => {
  it(`deletes the copies of emails older than ${EMAIL_OUTBOX_RETENTION_DAYS} days, whatever their status, and keeps the rest`, async () => {
    const add = async (to: string, ageDays: number, status: string) => {
      await db.sql`
        insert into email_outbox (to_address, subject, html, text, status, created_at)
        values (${to}, 'Your egg prices', '<p>x</p>', 'x', ${status}, ${daysAgo(ageDays)})`;
    };
    await add('old-sent@example.test', EMAIL_OUTBOX_RETENTION_DAYS + 1, 'sent');
    await add('old-failed@example.test', EMAIL_OUTBOX_RETENTION_DAYS + 5, 'failed');
    await add('old-pending@example.test', EMAIL_OUTBOX_RETENTION_DAYS + 2, 'pending');
    await add('recent@example.test', EMAIL_OUTBOX_RETENTION_DAYS - 1, 'sent');
    await add('today@example.test', 0, 'logged');
    // An alert delivery keeps its record (it stops the alert being sent twice) without the email.
    const [subscription] = await db.sql<{ id: number }[]>`
      insert into subscriptions (email, confirmed_at) values ('alerts@example.test', now()) returning id`;
    const [email] = await db.sql<{ id: number }[]>`
      insert into email_outbox (to_address, subject, html, text, status, created_at, subscription_id)
      values ('alerts@example.test', 'Price alert', '<p>x</p>', 'x', 'sent', ${daysAgo(EMAIL_OUTBOX_RETENTION_DAYS + 3)}, ${subscription!.id})
      returning id`;
    await db.sql`
      insert into alert_deliveries (subscription_id, period_key, kind, email_id)
      values (${subscription!.id}, 'weekly:2026-10-05', 'weekly', ${email!.id})`;

    await run('email_outbox__purge');
    const left = await db.sql<{ to_address: string }[]>`select to_address from email_outbox order by to_address`;
    expect(left.map((r) => r.to_address)).toEqual(['recent@example.test', 'today@example.test']);
    expect(await db.sql`select email_id from alert_deliveries where subscription_id = ${subscription!.id}`).toEqual([
      { email_id: null },
    ]);

    await run('email_outbox__purge');
    expect(await db.sql`select 1 from email_outbox`).toHaveLength(2);
  });
});

describe('subscriptions__purge', () => {
  it(`deletes alerts without an account stopped or unconfirmed for ${STOPPED_GUEST_ALERT_RETENTION_DAYS} days, with their links and emails`, async () => {
    await db.sql`delete from subscriptions`;
    await db.sql`
      insert into users (id, username, email, password_hash, email_verified)
      values ('purge-owner', 'purgeowner', 'owner@example.test', 'x', true)`;
    const old = STOPPED_GUEST_ALERT_RETENTION_DAYS + 1;
    const recent = STOPPED_GUEST_ALERT_RETENTION_DAYS - 1;
    const add = async (
      email: string,
      values: { userId?: string; active: boolean; confirmed: boolean; ageDays: number },
    ): Promise<number> => {
      const [row] = await db.sql<{ id: number }[]>`
        insert into subscriptions (user_id, email, active, confirmed_at, updated_at)
        values (${values.userId ?? null}, ${email}, ${values.active},
                ${values.confirmed ? daysAgo(values.ageDays + 1) : null}, ${daysAgo(values.ageDays)})
        returning id`;
      await db.sql`insert into subscription_link_tokens (token_hash, subscription_id) values (${`hash-${email}`}, ${row!.id})`;
      await db.sql`
        insert into email_outbox (to_address, subject, html, text, status, subscription_id)
        values (${email}, 'Price alert', '<p>x</p>', 'x', 'sent', ${row!.id})`;
      return row!.id;
    };
    const unsubscribedLongAgo = await add('gone@example.test', { active: false, confirmed: true, ageDays: old });
    await add('never-confirmed@example.test', { active: true, confirmed: false, ageDays: old });
    await add('paused-lately@example.test', { active: false, confirmed: true, ageDays: recent });
    await add('pending-lately@example.test', { active: true, confirmed: false, ageDays: recent });
    await add('subscribed@example.test', { active: true, confirmed: true, ageDays: old * 10 });
    await add('owner@example.test', { userId: 'purge-owner', active: false, confirmed: true, ageDays: old * 10 });
    await add('owner-other@example.test', { userId: 'purge-owner', active: true, confirmed: false, ageDays: old });

    await run('subscriptions__purge');
    const left = await db.sql<{ email: string }[]>`select email from subscriptions order by email`;
    expect(left.map((r) => r.email)).toEqual([
      'owner-other@example.test',
      'owner@example.test',
      'paused-lately@example.test',
      'pending-lately@example.test',
      'subscribed@example.test',
    ]);
    for (const table of ['subscription_link_tokens', 'email_outbox'] as const) {
      expect(
        await db.sql`select 1 from ${db.sql(table)} where subscription_id = ${unsubscribedLongAgo}`,
        table,
      ).toHaveLength(0);
    }
    expect(await db.sql`select 1 from email_outbox where to_address = 'never-confirmed@example.test'`).toHaveLength(0);

    await run('subscriptions__purge');
    expect(await db.sql`select 1 from subscriptions`).toHaveLength(5);
  });
});

describe('maintenance__prune', () => {
  it('deletes expired sessions, tokens a day past expiry and rate-limit windows a day old, and keeps the rest', async () => {
    await db.sql`
      insert into users (id, username, email, password_hash)
      values ('prune-user', 'pruneuser', 'prune@example.test', 'x')`;
    await db.sql`
      insert into user_sessions (id, user_id, expires_at) values
        ('expired', 'prune-user', now() - interval '1 minute'),
        ('live', 'prune-user', now() + interval '1 hour')`;
    await db.sql`
      insert into password_reset_tokens (token_hash, user_id, expires_at) values
        ('reset-old', 'prune-user', now() - ${EXPIRED_TOKEN_RETENTION_HOURS + 1} * interval '1 hour'),
        ('reset-recent', 'prune-user', now() - interval '1 hour')`;
    await db.sql`
      insert into email_verification_tokens (token_hash, user_id, email, expires_at) values
        ('verify-old', 'prune-user', 'prune@example.test', now() - ${EXPIRED_TOKEN_RETENTION_HOURS + 1} * interval '1 hour'),
        ('verify-recent', 'prune-user', 'prune@example.test', now() - interval '1 hour')`;
    await db.sql`
      insert into rate_limits (key, window_start, hits) values
        ('login:ip:203.0.113.9', now() - ${RATE_LIMIT_COUNTER_RETENTION_HOURS + 1} * interval '1 hour', 3),
        ('login:account:prune@example.test', now() - interval '1 hour', 1)`;

    await run('maintenance__prune');
    expect(await db.sql`select id from user_sessions where user_id = 'prune-user'`).toEqual([{ id: 'live' }]);
    expect(await db.sql`select token_hash from password_reset_tokens`).toEqual([{ token_hash: 'reset-recent' }]);
    expect(await db.sql`select token_hash from email_verification_tokens`).toEqual([{ token_hash: 'verify-recent' }]);
    expect(await db.sql`select key from rate_limits`).toEqual([{ key: 'login:account:prune@example.test' }]);
  });
});

describe('the purges are scheduled', () => {
  it('runs each purge daily', () => {
    expect(CRONTAB).toMatch(/^\d+ \d+ \* \* \* email_outbox__purge\b/m);
    expect(CRONTAB).toMatch(/^\d+ \d+ \* \* \* subscriptions__purge\b/m);
  });
});
