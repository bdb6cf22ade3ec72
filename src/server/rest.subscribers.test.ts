// Price-alert subscriptions over HTTP: double opt-in, the same answer with or without an account,
// the per-address limit and the rate limits, confirm and unsubscribe links (and RFC 8058 one-click),
// the owner/admin rule for editing, and bad input that writes nothing.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../../test/db.ts';
import { createAccount, linkToken, linkTokenTo, newestEmail, type TestAccount } from '../../test/users.ts';
import { ACCOUNT_SETTINGS, restServer } from '../../test/rest.ts';

const rest = restServer({ server: { auth: { ...ACCOUNT_SETTINGS, rateLimitScale: 5 } } });
const { call } = rest;
let db: TestDatabase;
let alice: TestAccount;
let bob: TestAccount;
let admin: TestAccount;

beforeAll(async () => {
  db = rest.db;
  alice = await createAccount(db.sql);
  bob = await createAccount(db.sql);
  admin = await createAccount(db.sql, { role: 'admin' });
});
beforeEach(async () => {
  await db.sql`delete from subscriptions`;
  await db.sql`delete from email_outbox`;
  await db.sql`delete from rate_limits`;
});

const SUBSCRIPTION = {
  email: 'Shopper@Example.test ',
  region: 'midwest',
  egg_type: 'cage-free',
  preferred_stores: ['walmart', 'Aldi'],
  notification_frequency: 'immediately',
  notification_channel: 'email',
  price_threshold: 3,
  active: true,
};

describe('POST /api/subscribers', () => {
  it('adds nothing when the address already has the same alert: says so (200, not 201), and mails the address the way to manage it', async () => {
    const first = await call('POST', '/api/subscribers', { body: SUBSCRIPTION });
    expect(first.status).toBe(201);
    expect(first.body.status).toBe('pending');
    // The same settings, the stores in another order and the address in another case.
    const again = { ...SUBSCRIPTION, email: 'shopper@example.test', preferred_stores: ['aldi', 'walmart'] };
    const pending = await call('POST', '/api/subscribers', { body: again });
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ status: 'exists', subscription: null, manageable: false });
    expect(pending.body.message).toContain('already has a price alert with these settings');
    // Still pending: the confirmation goes again, to the address only.
    const emails = await db.sql<{ to_address: string; subject: string }[]>`
      select to_address, subject from email_outbox order by id`;
    expect(emails.map((e) => e.subject)).toEqual([
      'Confirm your EggWatch price alert',
      'Confirm your EggWatch price alert',
    ]);
    await db.sql`update subscriptions set confirmed_at = now()`;
    const confirmed = await call('POST', '/api/subscribers', { body: again });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: 'exists', subscription: null });
    const [manage] = await db.sql<{ to_address: string; subject: string; text: string }[]>`
      select to_address, subject, text from email_outbox order by id desc limit 1`;
    expect(manage).toMatchObject({ subject: 'You already have this EggWatch price alert' });
    expect(manage!.text).toContain('http://eggwatch.test/notifications/manage?token=');
    expect((await db.sql`select id from subscriptions`).length).toBe(1);
    // Another setting is another alert.
    const other = await call('POST', '/api/subscribers', { body: { ...again, price_threshold: 2.5 } });
    expect(other.status).toBe(201);
    expect(other.body.status).toBe('pending');
    expect((await db.sql`select id from subscriptions`).length).toBe(2);
  });

  it('shows its owner the existing alert, to manage it here', async () => {
    const mine = { ...SUBSCRIPTION, email: alice.user.email };
    const first = await call('POST', '/api/subscribers', { as: alice, body: mine });
    const again = await call('POST', '/api/subscribers', { as: alice, body: mine });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      status: 'exists',
      manageable: true,
      subscription: { id: first.body.subscription.id },
    });
    expect(again.body.message).toBe('You already have this price alert: nothing new was added. Manage it below.');
    expect((await db.sql`select id from subscriptions`).length).toBe(1);
  });

  it('creates a pending subscription and emails a confirmation link; nothing is confirmed yet', async () => {
    const result = await call('POST', '/api/subscribers', { body: SUBSCRIPTION });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({
      status: 'pending',
      subscription: {
        email: 'shopper@example.test',
        region: 'midwest',
        egg_type: 'cage_free',
        preferred_stores: ['walmart', 'aldi'],
        notification_frequency: 'immediately',
        price_threshold: 3,
        active: true,
        confirmed_at: null,
      },
    });
    const email = await newestEmail(db.sql, 'shopper@example.test');
    expect(email!.subject).toBe('Confirm your EggWatch price alert');
    expect(email!.text).toContain('Midwest · Cage-Free eggs · Walmart, Aldi · at or under $3.00 a dozen · Immediately');
    expect(email!.text).toMatch(/http:\/\/eggwatch\.test\/notifications\/confirm\?token=/);
    // The token is stored only as a hash.
    const token = linkToken(email!.text);
    const [row] =
      await db.sql`select confirm_token_hash, confirm_expires_at > now() + interval '6 days' as week from subscriptions`;
    expect(row!.confirm_token_hash).not.toBe(token);
    expect(row!.week).toBe(true);
  });

  it('answers the same whether or not the address has an account', async () => {
    const withAccount = await call('POST', '/api/subscribers', { body: { ...SUBSCRIPTION, email: alice.user.email } });
    const without = await call('POST', '/api/subscribers', {
      body: { ...SUBSCRIPTION, email: 'nobody-here@example.test' },
    });
    expect(withAccount.status).toBe(without.status);
    expect(withAccount.body.status).toBe(without.body.status);
    expect(withAccount.body.message).toBe(without.body.message);
  });

  it("confirms at once for the signed-in user's own verified address", async () => {
    const result = await call('POST', '/api/subscribers', {
      as: alice,
      body: { ...SUBSCRIPTION, email: alice.user.email.toUpperCase() },
    });
    expect(result.body.status).toBe('confirmed');
    expect(result.body.subscription.confirmed_at).not.toBeNull();
    expect(await newestEmail(db.sql, alice.user.email)).toBeNull();
    const [row] = await db.sql`select user_id from subscriptions`;
    expect(row!.user_id).toBe(alice.user.id);
    // Listed in the user's subscriptions.
    const list = await call('GET', `/api/users/${alice.user.id}/subscriptions`, { as: alice });
    expect(list.body.map((s: { id: number }) => s.id)).toEqual([result.body.subscription.id]);
  });

  it('a signed-in user subscribing another address still needs that address to confirm', async () => {
    const result = await call('POST', '/api/subscribers', {
      as: alice,
      body: { ...SUBSCRIPTION, email: 'someone-else@example.test' },
    });
    expect(result.body.status).toBe('pending');
    expect((await newestEmail(db.sql, 'someone-else@example.test'))!.subject).toBe('Confirm your EggWatch price alert');
  });

  it('allows at most 20 active subscriptions per address', async () => {
    await db.sql`
      insert into subscriptions (email, active)
      select 'full@example.test', true from generate_series(1, 20) g`;
    const result = await call('POST', '/api/subscribers', { body: { ...SUBSCRIPTION, email: 'FULL@example.test' } });
    expect(result.status).toBe(409);
    expect(result.body.message).toMatch(/at most 20 active price alerts/);
    expect(await db.sql`select id from subscriptions where email = 'full@example.test'`).toHaveLength(20);
  });

  it('rate limits per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 52; i++)
      statuses.push(
        (
          await call('POST', '/api/subscribers', {
            body: { ...SUBSCRIPTION, email: 'flood@example.test', active: false },
          })
        ).status,
      );
    // The first adds the alert; the same alert again adds nothing (200), until the limit.
    expect(statuses[0]).toBe(201);
    expect(statuses.slice(1, 50).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it.each([
    [{ ...SUBSCRIPTION, email: 'not-an-email' }, 'email: Please enter a valid email address'],
    [{ ...SUBSCRIPTION, price_threshold: -1 }, 'price_threshold: Price threshold cannot be negative'],
    [{ ...SUBSCRIPTION, price_threshold: 'cheap' }, 'price_threshold: Price threshold must be a number'],
    [{ ...SUBSCRIPTION, price_threshold: 2.999 }, 'price_threshold: Price threshold can have at most two decimals'],
    [
      { ...SUBSCRIPTION, notification_frequency: 'hourly' },
      'notification_frequency: Frequency must be immediately, daily or weekly',
    ],
    [
      { ...SUBSCRIPTION, preferred_stores: ['costco'] },
      'preferred_stores.0: preferred stores must be among walmart, target, kroger, albertsons, whole-foods, aldi',
    ],
    [{ ...SUBSCRIPTION, region: 'moon' }, "region: Unknown region 'moon': use northeast, midwest, south or west"],
    [{ ...SUBSCRIPTION, notification_channel: 'sms' }, 'notification_channel: The only channel is email'],
    [
      { ...SUBSCRIPTION, extra: true },
      "Unknown field 'extra' of POST /api/subscribers: the body takes email, region, egg_type, preferred_stores, notification_frequency, notification_channel, price_threshold and active",
    ],
  ])('refuses %j with 400 and writes nothing', async (body, message) => {
    const result = await call('POST', '/api/subscribers', { body });
    expect(result.status).toBe(400);
    expect(result.body.message).toBe(message);
    expect(await db.sql`select id from subscriptions`).toEqual([]);
    expect(await db.sql`select id from email_outbox`).toEqual([]);
  });

  it('accepts the minimal body: region and egg type default to all, weekly, no threshold', async () => {
    const result = await call('POST', '/api/subscribers', { body: { email: 'min@example.test' } });
    expect(result.status).toBe(201);
    expect(result.body.subscription).toMatchObject({
      region: null,
      egg_type: null,
      preferred_stores: [],
      notification_frequency: 'weekly',
      price_threshold: null,
      active: true,
    });
  });
});

describe('confirmation', () => {
  it('the link confirms once; opened again it says already confirmed; a wrong or expired link says so', async () => {
    await call('POST', '/api/subscribers', { body: SUBSCRIPTION });
    const token = linkToken((await newestEmail(db.sql, 'shopper@example.test'))!.text);
    expect(await call('POST', '/api/subscribers/confirm', { body: { token: 'x'.repeat(43) } })).toEqual({
      status: 404,
      body: { message: 'This confirmation link is invalid or has expired.' },
    });
    const confirmed = await call('POST', '/api/subscribers/confirm', { body: { token } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe('confirmed');
    expect(confirmed.body.subscription.confirmed_at).not.toBeNull();
    const again = await call('POST', '/api/subscribers/confirm', { body: { token } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      status: 'already-confirmed',
      summary: 'Midwest · Cage-Free eggs · Walmart, Aldi · at or under $3.00 a dozen · Immediately',
    });
    expect(again.body.subscription.confirmed_at).toBe(confirmed.body.subscription.confirmed_at);
    // Long after the link's 7 days, it still says so rather than "expired".
    await db.sql`update subscriptions set confirmed_at = now() - interval '30 days' where email = 'shopper@example.test'`;
    expect((await call('POST', '/api/subscribers/confirm', { body: { token } })).body.status).toBe('already-confirmed');

    await call('POST', '/api/subscribers', { body: { ...SUBSCRIPTION, email: 'late@example.test' } });
    const late = linkToken((await newestEmail(db.sql, 'late@example.test'))!.text);
    await db.sql`update subscriptions set confirm_expires_at = now() - interval '1 minute' where email = 'late@example.test'`;
    expect((await call('POST', '/api/subscribers/confirm', { body: { token: late } })).status).toBe(404);
  });

  it('a confirmed subscription of an address with a verified account joins that account', async () => {
    await call('POST', '/api/subscribers', { body: { ...SUBSCRIPTION, email: bob.user.email } });
    const token = linkToken((await newestEmail(db.sql, bob.user.email))!.text);
    await call('POST', '/api/subscribers/confirm', { body: { token } });
    const list = await call('GET', `/api/users/${bob.user.id}/subscriptions`, { as: bob });
    expect(list.body).toHaveLength(1);
  });
});

describe('unsubscribe', () => {
  /** A confirmed subscription and the unsubscribe token of its confirmation email. */
  async function confirmedSubscription(): Promise<{ id: number; token: string }> {
    const created = await call('POST', '/api/subscribers', { body: { ...SUBSCRIPTION, email: alice.user.email } });
    const email = (await newestEmail(db.sql, alice.user.email))!.text;
    await call('POST', '/api/subscribers/confirm', { body: { token: linkToken(email) } });
    return { id: created.body.subscription.id, token: linkTokenTo(email, '/notifications/unsubscribe') };
  }

  it('GET describes the subscription and changes nothing; POST with the token unsubscribes without a login', async () => {
    const { id, token } = await confirmedSubscription();
    const info = await call('GET', `/api/subscribers/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(info.body).toEqual({
      email: alice.user.email,
      active: true,
      summary: 'Midwest · Cage-Free eggs · Walmart, Aldi · at or under $3.00 a dozen · Immediately',
    });
    expect((await db.sql`select active from subscriptions where id = ${id}`)[0]!.active).toBe(true);
    const done = await call('POST', '/api/subscribers/unsubscribe', { body: { token } });
    expect(done.body).toMatchObject({ success: true, email: alice.user.email });
    expect((await db.sql`select active from subscriptions where id = ${id}`)[0]!.active).toBe(false);
    expect((await call('POST', '/api/subscribers/unsubscribe', { body: { token: 'y'.repeat(43) } })).status).toBe(404);
  });

  it('one-click (RFC 8058): a form POST to the List-Unsubscribe URL unsubscribes, even from another site', async () => {
    const { id, token } = await confirmedSubscription();
    const result = await call('POST', `/notifications/unsubscribe?token=${encodeURIComponent(token)}`, {
      raw: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://mail.example.com' },
    });
    expect(result.status).toBe(200);
    expect(result.body).toBe('Unsubscribed: no more alerts will be sent for this subscription.');
    expect(
      (await db.sql`select active, unsubscribed_at is not null as at from subscriptions where id = ${id}`)[0],
    ).toEqual({ active: false, at: true });
    const bad = await call('POST', '/notifications/unsubscribe?token=nope', {
      raw: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(bad.status).toBe(404);
  });
});

describe('the manage link of every subscription email', () => {
  it('shows the subscription and saves everything but the address, without a login; its token is stored only hashed', async () => {
    const created = await call('POST', '/api/subscribers', { body: SUBSCRIPTION });
    const id = created.body.subscription.id as number;
    const email = (await newestEmail(db.sql, 'shopper@example.test'))!;
    const token = linkTokenTo(email.text, '/notifications/manage');
    expect(linkTokenTo(email.text, '/notifications/unsubscribe')).toBe(token);
    expect(await db.sql`select subscription_id from subscription_link_tokens where token_hash = ${token}`).toEqual([]);

    const shown = await call('GET', `/api/subscribers/manage?token=${encodeURIComponent(token)}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      subscription: { id, email: 'shopper@example.test', confirmed_at: null, active: true },
      summary: 'Midwest · Cage-Free eggs · Walmart, Aldi · at or under $3.00 a dozen · Immediately',
    });

    const { email: _address, ...values } = SUBSCRIPTION;
    const saved = await call('PUT', '/api/subscribers/manage', {
      body: { ...values, token, region: 'west', price_threshold: '2.50', notification_frequency: 'weekly' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      subscription: {
        id,
        email: 'shopper@example.test',
        region: 'west',
        price_threshold: 2.5,
        notification_frequency: 'weekly',
      },
      message: 'Your price alert is saved.',
    });
    // The address is not the manage page's to change.
    const moved = await call('PUT', '/api/subscribers/manage', {
      body: { ...values, token, email: 'thief@example.test' },
    });
    expect(moved).toEqual({
      status: 400,
      body: expect.objectContaining({
        message: expect.stringMatching(/^Unknown field 'email' of PUT \/api\/subscribers\/manage: the body takes /),
      }),
    });
    expect((await db.sql`select email from subscriptions where id = ${id}`)[0]!.email).toBe('shopper@example.test');

    // Paused and resumed from the page; a wrong token finds nothing and writes nothing.
    expect(
      (await call('PUT', '/api/subscribers/manage', { body: { ...values, token, active: false } })).body.subscription
        .active,
    ).toBe(false);
    expect(
      (await call('PUT', '/api/subscribers/manage', { body: { ...values, token, active: true } })).body.subscription
        .active,
    ).toBe(true);
    const wrong = await call('PUT', '/api/subscribers/manage', {
      body: { ...values, token: 'z'.repeat(43), active: false },
    });
    expect(wrong).toEqual({
      status: 404,
      body: { message: 'This link is invalid: open the link of a recent EggWatch email again.' },
    });
    expect((await call('GET', `/api/subscribers/manage?token=${'z'.repeat(43)}`)).status).toBe(404);
    expect((await db.sql`select active from subscriptions where id = ${id}`)[0]!.active).toBe(true);
  });

  it('resuming from the manage page keeps the limit of 20 active alerts per address', async () => {
    await call('POST', '/api/subscribers', { body: { ...SUBSCRIPTION, active: false } });
    const token = linkTokenTo((await newestEmail(db.sql, 'shopper@example.test'))!.text, '/notifications/manage');
    await db.sql`insert into subscriptions (email, active) select 'shopper@example.test', true from generate_series(1, 20) g`;
    const { email: _address, ...values } = SUBSCRIPTION;
    const result = await call('PUT', '/api/subscribers/manage', { body: { ...values, token, active: true } });
    expect(result.status).toBe(409);
    expect(result.body.message).toMatch(/at most 20 active price alerts/);
  });

  it('each email has a token of its own, and deleting the subscription ends them all', async () => {
    await call('POST', '/api/subscribers', { body: SUBSCRIPTION });
    const id = (await db.sql<{ id: number }[]>`select id from subscriptions`)[0]!.id;
    const first = linkTokenTo((await newestEmail(db.sql, 'shopper@example.test'))!.text, '/notifications/manage');
    await call('PUT', `/api/subscribers/${id}`, {
      as: admin,
      body: { ...SUBSCRIPTION, email: 'other-box@example.test' },
    });
    const second = linkTokenTo((await newestEmail(db.sql, 'other-box@example.test'))!.text, '/notifications/manage');
    expect(second).not.toBe(first);
    for (const token of [first, second])
      expect((await call('GET', `/api/subscribers/manage?token=${token}`)).body.subscription.id).toBe(id);
    await db.sql`delete from subscriptions where id = ${id}`;
    expect(await db.sql`select 1 from subscription_link_tokens`).toEqual([]);
  });
});

describe('editing and deleting', () => {
  it('the owner and an admin may read and change a subscription; anyone else gets 404', async () => {
    const created = await call('POST', '/api/subscribers', {
      as: alice,
      body: { ...SUBSCRIPTION, email: alice.user.email },
    });
    const id = created.body.subscription.id as number;
    expect((await call('GET', `/api/subscribers/${id}`)).status).toBe(401);
    expect((await call('GET', `/api/subscribers/${id}`, { as: bob })).status).toBe(404);
    expect((await call('GET', `/api/subscribers/${id}`, { as: alice })).body).toMatchObject({ id, region: 'midwest' });
    expect((await call('GET', `/api/subscribers/${id}`, { as: admin })).status).toBe(200);

    const change = {
      ...SUBSCRIPTION,
      email: alice.user.email,
      region: 'west',
      notification_frequency: 'daily',
      price_threshold: null,
    };
    expect((await call('PUT', `/api/subscribers/${id}`, { as: bob, body: change })).status).toBe(404);
    const updated = await call('PUT', `/api/subscribers/${id}`, { as: alice, body: change });
    expect(updated.body).toMatchObject({
      status: 'confirmed',
      subscription: { region: 'west', notification_frequency: 'daily', price_threshold: null },
    });
    expect(
      (await call('PUT', `/api/subscribers/${id}`, { as: admin, body: { ...change, region: 'south' } })).body
        .subscription.region,
    ).toBe('south');

    // A new address the owner has not proven must be confirmed again.
    const moved = await call('PUT', `/api/subscribers/${id}`, {
      as: alice,
      body: { ...change, email: 'new-box@example.test' },
    });
    expect(moved.body).toMatchObject({
      status: 'pending',
      subscription: { email: 'new-box@example.test', confirmed_at: null },
    });
    expect((await newestEmail(db.sql, 'new-box@example.test'))!.subject).toBe('Confirm your EggWatch price alert');

    expect(
      (await call('PUT', `/api/subscribers/${id}`, { as: alice, body: { ...change, price_threshold: -5 } })).status,
    ).toBe(400);
    expect((await call('DELETE', `/api/subscribers/${id}`, { as: bob })).status).toBe(404);
    expect((await call('DELETE', `/api/subscribers/${id}`, { as: alice })).status).toBe(200);
    expect(await db.sql`select id from subscriptions where id = ${id}`).toEqual([]);
  });
});
