// The admin Outbox: administrators only (checked by the server: 401 without a session, 403 for a
// shopper), recent emails newest first and paged, and an email's bodies only when no email leaves
// the machine (no RESEND_API_KEY).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { callerFor } from '../../../test/caller.ts';
import { createAccount, type TestAccount } from '../../../test/users.ts';
import { OUTBOX_PAGE_SIZE } from '#shared/outbox.ts';
import { createServer } from '../app.ts';

let db: TestDatabase;
let admin: TestAccount;
let shopper: TestAccount;

beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
  admin = await createAccount(db.sql, { role: 'admin' });
  shopper = await createAccount(db.sql);
});
afterAll(() => db.drop());
beforeEach(async () => {
  await db.sql`delete from email_outbox`;
});

const as = (account: TestAccount, config: { emailTransport?: 'resend' | 'outbox' } = {}) =>
  callerFor({
    sql: db.sql,
    user: account.user,
    session: { id: account.session.id, expiresAt: account.session.expiresAt },
    config,
  });

async function queue(n: number) {
  await db.sql`
    insert into email_outbox (to_address, subject, html, text, status, created_at, sent_at)
    select 'to' || g || '@example.test', 'Subject ' || g, '<p>Body <a href="https://eggwatch.test/x">' || g || '</a></p>', 'Body ' || g,
           case when g % 2 = 0 then 'logged' else 'pending' end, now() - (${n} - g) * interval '1 minute',
           case when g % 2 = 0 then now() end
    from generate_series(1, ${n}) g`;
}

describe('outbox.list', () => {
  it('lists recent emails newest first, a page at a time, with the total', async () => {
    await queue(OUTBOX_PAGE_SIZE + 3);
    const first = await as(admin).outbox.list({});
    expect(first).toMatchObject({
      total: OUTBOX_PAGE_SIZE + 3,
      page: 1,
      pageSize: OUTBOX_PAGE_SIZE,
      transport: 'outbox',
    });
    expect(first.emails).toHaveLength(OUTBOX_PAGE_SIZE);
    expect(first.emails[0]).toMatchObject({
      to: `to${OUTBOX_PAGE_SIZE + 3}@example.test`,
      subject: `Subject ${OUTBOX_PAGE_SIZE + 3}`,
      status: 'pending',
      sentAt: null,
      error: null,
    });
    expect(first.emails[0]!.createdAt).toMatch(/Z$/);
    expect(first.emails[0]).not.toHaveProperty('html');
    const second = await as(admin).outbox.list({ page: 2 });
    expect(second.emails.map((e) => e.subject)).toEqual(['Subject 3', 'Subject 2', 'Subject 1']);
    expect(second.emails[1]).toMatchObject({ status: 'logged' });
    expect((await as(admin).outbox.list({ page: 9 })).emails).toEqual([]);
  });

  it('an empty outbox is an empty page', async () => {
    expect(await as(admin).outbox.list({})).toMatchObject({ emails: [], total: 0 });
  });
});

describe('outbox.byId', () => {
  it('shows the bodies without RESEND_API_KEY, and withholds them when emails go to real people', async () => {
    await queue(1);
    const id = (await db.sql<{ id: number }[]>`select id from email_outbox`)[0]!.id;
    expect(await as(admin).outbox.byId({ id })).toMatchObject({
      id,
      to: 'to1@example.test',
      html: '<p>Body <a href="https://eggwatch.test/x">1</a></p>',
      text: 'Body 1',
    });
    expect(await as(admin, { emailTransport: 'resend' }).outbox.byId({ id })).toMatchObject({
      id,
      subject: 'Subject 1',
      html: null,
      text: null,
    });
    expect((await as(admin, { emailTransport: 'resend' }).outbox.list({})).transport).toBe('resend');
    await expect(as(admin).outbox.byId({ id: id + 1000 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: `No email ${id + 1000}`,
    });
  });
});

describe('only administrators', () => {
  it('refuses a shopper and an anonymous caller over HTTP: 403 and 401, and no email in the answer', async () => {
    await queue(2);
    const server = createServer({
      sql: db.sql,
      port: 0,
      logLevel: 'silent',
      distDir: '/nonexistent',
      auth: { publicUrl: 'http://eggwatch.test', adminSetupKey: 'outbox-setup-key-00' },
    });
    const base = await server.start();
    try {
      const id = (await db.sql<{ id: number }[]>`select id from email_outbox limit 1`)[0]!.id;
      for (const path of [
        'outbox.list?input=%7B%22json%22%3A%7B%7D%7D',
        `outbox.byId?input=${encodeURIComponent(JSON.stringify({ json: { id } }))}`,
      ]) {
        const anonymous = await fetch(`${base}/trpc/${path}`);
        expect(anonymous.status).toBe(401);
        const asShopper = await fetch(`${base}/trpc/${path}`, {
          headers: { authorization: `Bearer ${shopper.token}` },
        });
        expect(asShopper.status).toBe(403);
        expect(await asShopper.text()).not.toContain('example.test');
        const asAdmin = await fetch(`${base}/trpc/${path}`, { headers: { authorization: `Bearer ${admin.token}` } });
        expect(asAdmin.status).toBe(200);
      }
    } finally {
      await server.stop();
    }
  });
});
