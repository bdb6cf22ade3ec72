// The e2e database, for what a journey cannot do through the browser: read the emails the app
// sent (email_outbox), prepare accounts and subscriptions, and write a session directly (house
// style: only the login screens' own tests log in through the UI). e2e/serve.ts writes the
// database URL to .data/e2e-db-url-<port>.
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import postgres from 'postgres';
import { hashPassword } from '#server/auth/password.ts';
import { writeZipOutcome } from '#server/queries/scrape-writes.ts';
import { expect, test as base } from './fixtures.ts';

export type Db = postgres.Sql;

export const test = base.extend<Record<never, never>, { db: Db }>({
  db: [
    async ({}, use, workerInfo) => {
      const port = new URL(String(workerInfo.project.use.baseURL)).port;
      const url = fs.readFileSync(`.data/e2e-db-url-${port}`, 'utf8').trim();
      const sql = postgres(url, { max: 2, onnotice: () => {} });
      await use(sql);
      await sql.end({ timeout: 5 });
    },
    { scope: 'worker' },
  ],
});

export { expect };

export interface Account {
  id: string;
  username: string;
  email: string;
  password: string;
  role: 'user' | 'admin';
}

/** Names unique to this project and run: the three widths share one database. */
export function uniqueName(prefix: string, projectName: string): string {
  return `${prefix}-${projectName}-${Date.now().toString(36)}${crypto.randomBytes(2).toString('hex')}`.toLowerCase();
}

export async function createAccount(
  db: Db,
  account: Omit<Account, 'id'> & { emailVerified?: boolean },
): Promise<Account> {
  const id = crypto.randomBytes(10).toString('hex');
  await db`
    insert into users (id, username, email, password_hash, role, email_verified)
    values (${id}, ${account.username}, ${account.email}, ${await hashPassword(account.password)}, ${account.role}, ${account.emailVerified ?? true})`;
  return { id, username: account.username, email: account.email, password: account.password, role: account.role };
}

export async function userByEmail(
  db: Db,
  email: string,
): Promise<{ id: string; username: string; role: string; email_verified: boolean } | undefined> {
  const [user] = await db<{ id: string; username: string; role: string; email_verified: boolean }[]>`
    select id, username, role, email_verified from users where lower(email) = lower(${email})`;
  return user;
}

/** The newest email to an address once the worker has delivered it (local transport: 'logged'). */
export async function latestEmail(db: Db, to: string, subject: RegExp): Promise<{ subject: string; text: string }> {
  let found: { subject: string; text: string } | undefined;
  await expect
    .poll(
      async () => {
        const [row] = await db<{ subject: string; text: string; status: string }[]>`
          select subject, text, status from email_outbox
          where lower(to_address) = lower(${to})
          order by created_at desc, id desc limit 1`;
        found = row && row.status === 'logged' && subject.test(row.subject) ? row : undefined;
        return Boolean(found);
      },
      { message: `an email to ${to} matching ${subject}`, timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

/** The first link in an email's text that goes to `path`. */
export function linkTo(text: string, path: string): string {
  const match = text.match(new RegExp(`https?://\\S+${path.replace(/[/?]/g, '\\$&')}\\?token=[^\\s]+`));
  if (!match) throw new Error(`no ${path} link in:\n${text}`);
  return match[0];
}

export async function createSubscription(
  db: Db,
  s: {
    userId: string;
    email: string;
    region: string;
    eggType: string;
    stores: string[];
    threshold: number | null;
    frequency: string;
  },
): Promise<number> {
  const [row] = await db<{ id: number }[]>`
    insert into subscriptions (user_id, email, region, egg_type, preferred_stores, notification_frequency, price_threshold, confirmed_at)
    values (${s.userId}, ${s.email}, ${s.region}, ${s.eggType}, ${s.stores}, ${s.frequency}, ${s.threshold}, now())
    returning id`;
  return row!.id;
}

/**
 * Signs the page's browser in without the login screen: a session row plus its cookie, and the
 * browser's session marker (docs/decisions/003-browser-session.md). The marker is written from a
 * blank page of the site's origin, so the app is not loaded for it: the journey's next `page.goto`
 * opens the app signed in, as a shopper who signed in yesterday finds it.
 */
export async function signInDirectly(page: Page, db: Db, account: Account, baseURL: string): Promise<void> {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const id = `b${Array.from(crypto.randomBytes(40), (byte) => alphabet[byte % alphabet.length]).join('')}`;
  await db`insert into user_sessions (id, user_id, expires_at) values (${id}, ${account.id}, now() + interval '1 hour')`;
  await page
    .context()
    .addCookies([{ name: 'eggwatch_session', value: id, url: baseURL, httpOnly: true, sameSite: 'Lax' }]);
  // A blank page of the site's origin, answered in the browser (with an icon of its own, so the
  // browser asks the server for none).
  const blank = new URL('/e2e-sign-in', baseURL).href;
  await page.route(blank, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><link rel="icon" href="data:,"><title>Sign-in</title>',
    }),
  );
  await page.goto(blank);
  await page.unroute(blank);
  await page.evaluate(
    (user) => {
      localStorage.setItem('authToken', 'cookie-session');
      localStorage.setItem('userId', user.id);
      if (user.role === 'admin') localStorage.setItem('userData', JSON.stringify(user));
    },
    { id: account.id, username: account.username, email: account.email, role: account.role },
  );
}

/**
 * Retailer prices as a finished scrape run writes them (source 'scrape', at one location today),
 * with the immediate-alerts job the run queues: a journey's way to make prices cross a threshold
 * (the browser tests' scrapers read the stand-in, whose prices are demo prices and never alert).
 */
export async function writeScrapedPrices(
  db: Db,
  run: {
    store: string;
    zip: string;
    region: string;
    listings: Array<{ id: string; eggType: string; count: number; price: number }>;
  },
): Promise<number> {
  // postgres.js must know the array types before a query sends an array (src/server/db.ts openSql).
  await db`select 1`;
  const [row] = await db<{ id: number }[]>`
    insert into scrape_runs (store_id, zip_codes, total, status, started_at, finished_at, observations_written)
    values (${run.store}, ${[run.zip]}, 1, 'succeeded', now(), now(), ${run.listings.length}) returning id`;
  const runId = row!.id;
  await writeZipOutcome(db as unknown as Parameters<typeof writeZipOutcome>[0], {
    runId,
    storeId: run.store,
    zip: run.zip,
    status: 'succeeded',
    message: null,
    startedAt: new Date(),
    pages: 1,
    listingsSeen: run.listings.length,
    skipped: {},
    rejected: {},
    requests: 1,
    location: {
      zip: run.zip,
      region: run.region,
      retailerLocationId: run.zip,
      name: `${run.store} ${run.zip}`,
      city: null,
      state: null,
      address: null,
      latitude: null,
      longitude: null,
    },
    listings: run.listings.map((l) => ({
      retailerProductId: l.id,
      title: `E2E Farms Large Eggs, ${l.count} ct`,
      brand: 'E2E Farms',
      eggType: l.eggType,
      count: l.count,
      sizeGrade: 'Large',
      price: l.price,
      regularPrice: null,
      inStock: true,
      url: null,
    })),
    source: 'scrape',
  });
  await db`select graphile_worker.add_job('alerts__immediate', json_build_object('runId', ${runId}::int))`;
  return runId;
}

/** Every email sent to an address so far, oldest first, once the worker has delivered them. */
export async function emailsTo(
  db: Db,
  to: string,
): Promise<Array<{ subject: string; text: string; headers: Record<string, string>; status: string }>> {
  return db`select subject, text, headers, status from email_outbox where lower(to_address) = lower(${to}) order by id`;
}
