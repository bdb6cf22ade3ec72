// Price alerts through graphile-worker's run-once API against a real database: the matching rule
// (SQL and the shared function agree), immediate alerts after a scrape run, daily digests and
// weekly summaries, exactly once whatever runs twice, never to pending or stopped subscriptions,
// never for sample or demo prices, and the emails themselves.
import { runOnce } from 'graphile-worker';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pricePerDozen } from '#shared/subscriptions.ts';
import { matchesSubscription } from '../test/alert-matching.ts';
import type { EggType, Region } from '#shared/vocabulary.ts';
import { dailyDigestMatches } from '#server/queries/alerts.ts';
import { quietLogger } from '#server/migrate.ts';
import { runJobs as runQueuedJobs } from '../test/jobs.ts';
import { hashToken } from '#server/auth/tokens.ts';
import { createTestDatabase, type TestDatabase } from '../test/db.ts';
import { scrapeRun, type RunListing } from '../test/scrape-runs.ts';
import { taskList } from './tasks.ts';
import { deliverDaily, DELIVERY_BATCH } from './alerts.ts';

let db: TestDatabase;
const PUBLIC_URL = 'https://eggwatch.test';

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());
beforeEach(async () => {
  await db.sql`delete from alert_deliveries`;
  await db.sql`delete from email_outbox`;
  await db.sql`delete from subscriptions`;
  await db.sql`delete from graphile_worker._private_jobs`;
});

const runJobs = () =>
  runQueuedJobs(
    db,
    taskList({
      sql: db.sql,
      email: { from: 'alerts@eggwatch.test' },
      alerts: { publicUrl: PUBLIC_URL, digestHourUtc: 13 },
    }),
  );

/** A scrape run that wrote these listings at one location today (source 'scrape' unless demo). */
const scrape = (
  store: string,
  zip: string,
  region: Region,
  listings: RunListing[],
  source: 'scrape' | 'demo' = 'scrape',
) => scrapeRun(db.sql, store, zip, region, listings, source);

async function queueImmediate(runId: number) {
  await db.sql`select graphile_worker.add_job('alerts__immediate', json_build_object('runId', ${runId}::int))`;
}

async function subscribe(s: {
  email: string;
  region?: Region | null;
  eggType?: EggType | null;
  stores?: string[];
  threshold?: number | null;
  frequency?: 'immediately' | 'daily' | 'weekly';
  confirmed?: boolean;
  active?: boolean;
}) {
  const [row] = await db.sql<{ id: number }[]>`
    insert into subscriptions (email, region, egg_type, preferred_stores, price_threshold, notification_frequency, confirmed_at, active)
    values (${s.email}, ${s.region ?? null}, ${s.eggType ?? null}, ${db.sql.array(s.stores ?? [])}::text[], ${s.threshold ?? null},
            ${s.frequency ?? 'immediately'}, ${s.confirmed === false ? null : db.sql`now()`}, ${s.active ?? true})
    returning id`;
  return row!;
}

const outbox = () =>
  db.sql<
    {
      to_address: string;
      subject: string;
      text: string;
      html: string;
      headers: Record<string, string>;
      subscription_id: number | null;
    }[]
  >`
    select to_address, subject, text, html, headers, subscription_id from email_outbox order by id`;

describe('immediate alerts', () => {
  it('emails each matching, confirmed subscription once with its best listings, and never again for the same prices', async () => {
    const threshold = await subscribe({
      email: 'cheap@example.test',
      region: 'midwest',
      eggType: 'cage_free',
      threshold: 3,
    });
    await subscribe({
      email: 'pending@example.test',
      region: 'midwest',
      eggType: 'cage_free',
      threshold: 3,
      confirmed: false,
    });
    await subscribe({
      email: 'stopped@example.test',
      region: 'midwest',
      eggType: 'cage_free',
      threshold: 3,
      active: false,
    });
    await subscribe({ email: 'south@example.test', region: 'south', threshold: 9 });
    await subscribe({ email: 'target-only@example.test', stores: ['target'], threshold: 9 });
    await subscribe({ email: 'weekly@example.test', region: 'midwest', threshold: 9, frequency: 'weekly' });

    // An 18-pack at $4.50 is $3.00 a dozen: at the threshold, so it matches; 12 at $3.25 does not.
    const runId = await scrape('kroger', '60611', 'midwest', [
      { id: 'cf18', eggType: 'cage_free', count: 18, price: 4.5 },
      { id: 'cf12', eggType: 'cage_free', count: 12, price: 3.25 },
      { id: 'cf6', eggType: 'cage_free', count: 6, price: 1.29 },
      { id: 'org12', eggType: 'organic', count: 12, price: 2.5 },
    ]);
    await queueImmediate(runId);
    await runJobs();
    let emails = await outbox();
    expect(emails.map((e) => e.to_address)).toEqual(['cheap@example.test']);
    const [email] = emails;
    expect(email!.subject).toBe('2 cage-free egg prices under $3.00 in the Midwest');
    expect(email!.subscription_id).toBe(threshold.id);
    // Best first, by price per dozen: $2.58 (6 at $1.29), then $3.00.
    expect(email!.text.indexOf('$1.29 / 6 ct')).toBeLessThan(email!.text.indexOf('$4.50 / 18 ct'));
    expect(email!.text).not.toContain('$3.25');
    expect(email!.text).toContain(`${PUBLIC_URL}/?store=kroger&region=midwest&type=cage-free`);
    // Retailer text is escaped in the HTML.
    expect(email!.html).toContain('Test &lt;b&gt;cf18&lt;/b&gt; &amp; Eggs');
    expect(email!.html).not.toContain('<b>cf18</b>');
    // RFC 8058 one-click unsubscribe and the manage link, with a token of this email's own,
    // stored only as its hash and belonging to this subscription.
    const token = /\/notifications\/manage\?token=([\w-]+)/.exec(email!.text)![1]!;
    expect(email!.headers).toEqual({
      'List-Unsubscribe': `<${PUBLIC_URL}/notifications/unsubscribe?token=${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(email!.text).toContain(`Unsubscribe: ${PUBLIC_URL}/notifications/unsubscribe?token=${token}`);
    expect(email!.html).toContain(`href="${PUBLIC_URL}/notifications/manage?token=${token}"`);
    expect(
      await db.sql`select subscription_id from subscription_link_tokens where token_hash = ${hashToken(token)}`,
    ).toEqual([{ subscription_id: threshold.id }]);
    expect(await db.sql`select 1 from subscription_link_tokens where token_hash = ${token}`).toEqual([]);

    // The same job again, and a new run with the same prices: nothing more.
    await queueImmediate(runId);
    await runJobs();
    const again = await scrape('kroger', '60611', 'midwest', [
      { id: 'cf18', eggType: 'cage_free', count: 18, price: 4.5 },
      { id: 'cf6', eggType: 'cage_free', count: 6, price: 1.29 },
    ]);
    await queueImmediate(again);
    await runJobs();
    expect(await outbox()).toHaveLength(1);

    // A new lower price of the same listing alerts again.
    await db.sql`update price_observations set observed_at = observed_at - interval '1 day', observed_on = utc_day(observed_at - interval '1 day') where scrape_run_id in (${runId}, ${again})`;
    const lower = await scrape('kroger', '60611', 'midwest', [
      { id: 'cf18', eggType: 'cage_free', count: 18, price: 4.2 },
    ]);
    await queueImmediate(lower);
    await runJobs();
    emails = await outbox();
    expect(emails).toHaveLength(2);
    expect(emails[1]!.subject).toBe('1 cage-free egg price under $3.00 in the Midwest');
    expect(emails[1]!.text).toContain('$4.20 / 18 ct');
    // One delivery row per price event, each pointing at its email.
    const deliveries =
      await db.sql`select period_key, email_id is not null as has_email from alert_deliveries where subscription_id = ${threshold.id} order by id`;
    expect(deliveries).toEqual(
      [
        { period_key: expect.stringMatching(/^price:\d+:\d+:1\.29$/), has_email: true },
        { period_key: expect.stringMatching(/^price:\d+:\d+:4\.50$/), has_email: true },
        { period_key: expect.stringMatching(/^price:\d+:\d+:4\.20$/), has_email: true },
      ].sort(() => 0),
    );
  });

  it('without a threshold, a drop of 5% or more against 7 days before matches', async () => {
    await subscribe({ email: 'drops@example.test', region: 'west', eggType: 'organic' });
    const old = await scrape('target', '94110', 'west', [
      { id: 'o1', eggType: 'organic', count: 12, price: 6.0 },
      { id: 'o2', eggType: 'organic', count: 12, price: 6.0 },
    ]);
    await db.sql`update price_observations set observed_at = now() - interval '8 days', observed_on = utc_day(now() - interval '8 days') where scrape_run_id = ${old}`;
    const now = await scrape('target', '94110', 'west', [
      { id: 'o1', eggType: 'organic', count: 12, price: 5.7 }, // -5.0%
      { id: 'o2', eggType: 'organic', count: 12, price: 5.75 }, // -4.2%
    ]);
    await queueImmediate(now);
    await runJobs();
    const emails = await outbox();
    expect(emails.map((e) => e.subject)).toEqual(['1 organic egg price drop in the West']);
    expect(emails[0]!.text).toContain('$5.70 / 12 ct');
  });

  it('demo and sample prices never alert', async () => {
    await subscribe({ email: 'any@example.test', threshold: 99 });
    const runId = await scrape(
      'aldi',
      '30301',
      'south',
      [{ id: 'd1', eggType: 'standard', count: 12, price: 1.99 }],
      'demo',
    );
    await queueImmediate(runId);
    await runJobs();
    expect(await outbox()).toEqual([]);
  });

  it('a scrape run that finishes queues the immediate alerts in its own transaction', async () => {
    const [run] = await db.sql<{ id: number }[]>`
      insert into scrape_runs (store_id, zip_codes, total, status, worker_id, started_at) values ('walmart', '{10001}', 1, 'running', 'w', now()) returning id`;
    await db.sql`insert into scrape_run_zips (run_id, zip, status, observations_written, accepted, started_at) values (${run!.id}, '10001', 'succeeded', 3, 3, now())`;
    // The task's finish step, as a resumed run would reach it with every ZIP written.
    await db.sql`update scrape_runs set status = 'queued', worker_id = null where id = ${run!.id}`;
    await db.sql`select graphile_worker.add_job('stores__scrape', json_build_object('runId', ${run!.id}::int))`;
    await runOnce({
      connectionString: db.url,
      taskList: { stores__scrape: taskList({ sql: db.sql, email: { from: 'x@y.z' } }).stores__scrape! },
      logger: quietLogger,
    });
    // (graphile-worker records the scrape job's completion just after runOnce ends.)
    await expect
      .poll(async () => db.sql`select task_identifier, key from graphile_worker.jobs`, { timeout: 10_000 })
      .toEqual([{ task_identifier: 'alerts__immediate', key: `alerts:run:${run!.id}` }]);
  });
});

describe('digests', () => {
  it('daily: the day’s matches and the cheapest current listings, once per day, none when empty', async () => {
    const day = new Date().toISOString().slice(0, 10);
    await subscribe({ email: 'daily@example.test', region: 'northeast', threshold: 4, frequency: 'daily' });
    await subscribe({ email: 'nothing@example.test', region: 'northeast', threshold: 0.5, frequency: 'daily' });
    await scrape('walmart', '10001', 'northeast', [
      { id: 's12', eggType: 'standard', count: 12, price: 3.49 },
      { id: 's18', eggType: 'standard', count: 18, price: 7.2 },
    ]);
    await db.sql`select graphile_worker.add_job('alerts__digest', json_build_object('kind', 'daily', 'period', ${day}::text))`;
    await runJobs();
    await db.sql`select graphile_worker.add_job('alerts__digest', json_build_object('kind', 'daily', 'period', ${day}::text))`;
    await runJobs();
    const emails = await outbox();
    expect(emails.map((e) => [e.to_address, e.subject])).toEqual([
      ['daily@example.test', 'Daily digest: 1 egg price under $4.00 in the Northeast'],
    ]);
    expect(emails[0]!.text).toContain(`Today's matches (${day})`);
    expect(emails[0]!.text).toContain('The cheapest current listings for your alert');
  });

  it('daily: subscriptions sharing listings each get their own address, links and matches; shared tables are not mixed', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const low = await subscribe({ email: 'low@example.test', region: 'northeast', threshold: 4, frequency: 'daily' });
    const low2 = await subscribe({
      email: 'low2@example.test',
      region: 'northeast',
      threshold: 4.5,
      frequency: 'daily',
    });
    const high = await subscribe({
      email: 'high@example.test',
      region: 'northeast',
      threshold: 10,
      frequency: 'daily',
    });
    await scrape('walmart', '10001', 'northeast', [
      { id: 's12', eggType: 'standard', count: 12, price: 3.49 },
      { id: 's18', eggType: 'standard', count: 18, price: 7.2 },
    ]);
    const report = await deliverDaily(db.sql, PUBLIC_URL, day);
    expect(report.emails).toBe(3);
    const emails = await outbox();
    const of = (id: number) => emails.find((e) => e.subscription_id === id)!;
    const matchesText = (text: string) =>
      text.slice(text.indexOf("Today's matches"), text.indexOf('The cheapest current listings'));
    // The same listings (one match) for both lower thresholds, with each one's own threshold in the subject.
    expect([of(low.id).to_address, of(low.id).subject]).toEqual([
      'low@example.test',
      'Daily digest: 1 egg price under $4.00 in the Northeast',
    ]);
    expect([of(low2.id).to_address, of(low2.id).subject]).toEqual([
      'low2@example.test',
      'Daily digest: 1 egg price under $4.50 in the Northeast',
    ]);
    expect(matchesText(of(low.id).text)).toEqual(matchesText(of(low2.id).text));
    expect(matchesText(of(low.id).text)).not.toContain('s18');
    expect(of(high.id).subject).toBe('Daily digest: 2 egg prices under $10.00 in the Northeast');
    expect(matchesText(of(high.id).text)).toContain('s18');
    expect(of(low.id).html).toContain('at or under $4.00 a dozen');
    expect(of(low2.id).html).toContain('at or under $4.50 a dozen');
    // Every email's links carry a token of its own, which opens its own subscription.
    const tokens = emails.map((e) => /unsubscribe\?token=([^"&\s]+)/.exec(e.html)![1]!);
    expect(new Set(tokens).size).toBe(3);
    for (const [i, e] of emails.entries()) {
      const [row] = await db.sql<
        { subscription_id: number }[]
      >`select subscription_id from subscription_link_tokens where token_hash = ${hashToken(decodeURIComponent(tokens[i]!))}`;
      expect(row!.subscription_id).toBe(e.subscription_id);
      expect(e.text).toContain(`token=${tokens[i]}`);
    }
  });

  it('daily: runs of many batches side by side write one email, one delivery and one send job per subscription, linked together', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const n = DELIVERY_BATCH * 2 + 137;
    await db.sql`
      insert into subscriptions (email, region, price_threshold, notification_frequency, confirmed_at)
      select 'many' || g || '@example.test', 'northeast', 4 + (g % 7), 'daily', now() from generate_series(1, ${n}) g`;
    await scrape('walmart', '10001', 'northeast', [
      { id: 's12', eggType: 'standard', count: 12, price: 3.49 },
      { id: 's18', eggType: 'standard', count: 18, price: 7.2 },
    ]);
    // Two runs at once (a doubled job): between them, each subscription is sent its digest once.
    const reports = await Promise.all([deliverDaily(db.sql, PUBLIC_URL, day), deliverDaily(db.sql, PUBLIC_URL, day)]);
    expect(reports[0]!.emails + reports[1]!.emails).toBe(n);
    const [totals] = await db.sql<
      { emails: number; subscriptions: number; deliveries: number; linked: number; jobs: number; jobbed: number }[]
    >`
      select (select count(*)::int from email_outbox) as emails,
             (select count(distinct subscription_id)::int from email_outbox) as subscriptions,
             (select count(*)::int from alert_deliveries where period_key = ${`daily:${day}`}) as deliveries,
             (select count(*)::int from alert_deliveries d join email_outbox o on o.id = d.email_id and o.subscription_id = d.subscription_id
               and o.idempotency_key = 'daily:' || ${day} || ':' || d.subscription_id) as linked,
             (select count(*)::int from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'send_email') as jobs,
             (select count(distinct o.id)::int from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id join email_outbox o on o.id = (j.payload->>'id')::int where t.identifier = 'send_email') as jobbed`;
    expect(totals).toEqual({ emails: n, subscriptions: n, deliveries: n, linked: n, jobs: n, jobbed: n });
    // Each email went to its own subscription's address.
    const [wrong] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from email_outbox o join subscriptions s on s.id = o.subscription_id where s.email <> o.to_address`;
    expect(wrong!.n).toBe(0);
    // And a third run finds nothing left to send.
    expect((await deliverDaily(db.sql, PUBLIC_URL, day)).emails).toBe(0);
  });

  it('the outbox compresses its HTML and text with lz4 where the server was built with it (migration 019), else keeps pglz', async () => {
    const [config] = await db.sql<
      { lz4: boolean }[]
    >`select setting like '%--with-lz4%' as lz4 from pg_config where name = 'CONFIGURE'`;
    const columns = await db.sql<{ attname: string; attcompression: string }[]>`
      select attname, attcompression from pg_attribute where attrelid = 'email_outbox'::regclass and attname in ('html', 'text') order by attname`;
    expect(columns.map((c) => [c.attname, c.attcompression])).toEqual([
      ['html', config!.lz4 ? 'l' : ''],
      ['text', config!.lz4 ? 'l' : ''],
    ]);
  });

  it('weekly: lowest price, change against the week before, cheapest store and listings under the threshold', async () => {
    const monday = new Date().toISOString().slice(0, 10);
    await subscribe({
      email: 'weekly@example.test',
      region: 'south',
      eggType: 'standard',
      threshold: 3,
      frequency: 'weekly',
    });
    const before = await scrape('aldi', '30301', 'south', [{ id: 'w12', eggType: 'standard', count: 12, price: 3.0 }]);
    await db.sql`update price_observations set observed_at = now() - interval '10 days', observed_on = utc_day(now() - interval '10 days') where scrape_run_id = ${before}`;
    const during = await scrape('aldi', '30301', 'south', [{ id: 'w12', eggType: 'standard', count: 12, price: 2.7 }]);
    await db.sql`update price_observations set observed_at = now() - interval '3 days', observed_on = utc_day(now() - interval '3 days') where scrape_run_id = ${during}`;
    await db.sql`select graphile_worker.add_job('alerts__digest', json_build_object('kind', 'weekly', 'period', ${monday}::text))`;
    await runJobs();
    await db.sql`select graphile_worker.add_job('alerts__digest', json_build_object('kind', 'weekly', 'period', ${monday}::text))`;
    await runJobs();
    const emails = await outbox();
    expect(emails.map((e) => e.subject)).toEqual(['Weekly summary: standard eggs from $2.70 a dozen in the South']);
    expect(emails[0]!.text).toContain('Lowest price this week: $2.70 a dozen at Aldi (South).');
    expect(emails[0]!.text).toContain('down 10.0% against the week before');
    expect(emails[0]!.text).toContain('Cheapest store on average: Aldi at $2.70 a dozen.');
    expect(emails[0]!.text).toContain('Listings at or under $3.00 a dozen now:');
  });

  it('alerts__schedule queues the daily digest at the digest hour, and the weekly summary on Mondays, once', async () => {
    const schedule = taskList({
      sql: db.sql,
      email: { from: 'x@y.z' },
      alerts: { publicUrl: PUBLIC_URL, digestHourUtc: 13 },
    }).alerts__schedule!;
    for (const now of [
      '2026-11-23T12:00:00Z',
      '2026-11-23T13:00:00Z',
      '2026-11-23T13:00:00Z',
      '2026-11-24T13:00:00Z',
    ]) {
      await db.sql`select graphile_worker.add_job('alerts__schedule', json_build_object('now', ${now}::text))`;
    }
    await runOnce({ connectionString: db.url, taskList: { alerts__schedule: schedule }, logger: quietLogger });
    const jobs = await db.sql<
      { key: string }[]
    >`select key from graphile_worker.jobs where task_identifier = 'alerts__digest' order by key`;
    // 2026-11-23 is a Monday.
    expect(jobs.map((j) => j.key)).toEqual([
      'alerts:daily:2026-11-23',
      'alerts:daily:2026-11-24',
      'alerts:weekly:2026-11-23',
    ]);
  });
});

describe('stopping mail', () => {
  it('an unsubscribed subscription’s queued alert is not sent, and a deleted one’s is gone', async () => {
    const sub = await subscribe({ email: 'stop@example.test', threshold: 99 });
    const runId = await scrape('target', '10001', 'northeast', [
      { id: 'x1', eggType: 'standard', count: 12, price: 2.99 },
    ]);
    await queueImmediate(runId);
    await runOnce({
      connectionString: db.url,
      taskList: {
        alerts__immediate: taskList({
          sql: db.sql,
          email: { from: 'x@y.z' },
          alerts: { publicUrl: PUBLIC_URL, digestHourUtc: 13 },
        }).alerts__immediate!,
      },
      logger: quietLogger,
    });
    await db.sql`update subscriptions set active = false where id = ${sub.id}`;
    await runJobs();
    const [row] = await db.sql`select status, error from email_outbox`;
    expect(row).toEqual({ status: 'failed', error: 'not sent: the subscription was stopped' });
    await db.sql`delete from subscriptions where id = ${sub.id}`;
    expect(await outbox()).toEqual([]);
  });
});

describe('the matching rule', () => {
  it('the SQL matcher and matchesSubscription agree', async () => {
    const regions: Region[] = ['northeast', 'midwest', 'south', 'west'];
    const types: EggType[] = ['standard', 'cage_free', 'organic', 'pasture_raised'];
    const stores = ['walmart', 'target', 'kroger'];
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
    const day = new Date().toISOString().slice(0, 10);
    // Two locations per store, a few listings each, with history 8 days back for the drop rule.
    const listings: Array<{ store: string; zip: string; region: Region; l: RunListing; old: number }> = [];
    const zips: Record<Region, string[]> = {
      northeast: ['10001', '02108'],
      midwest: ['60611', '48201'],
      south: ['30301', '77001'],
      west: ['94110', '98101'],
    };
    for (const store of stores) {
      for (const region of regions.slice(0, 2)) {
        const zip = zips[region][stores.indexOf(store) % 2]!;
        const items: RunListing[] = Array.from({ length: 4 }, (_, i) => ({
          id: `${store}-${region}-${i}`,
          eggType: pick(types),
          count: pick([6, 12, 18]),
          price: Math.round((1.5 + rand() * 6) * 100) / 100,
        }));
        const old = await scrape(
          store,
          zip,
          region,
          items.map((l) => ({ ...l, price: Math.round(l.price * (1 + rand() * 0.12) * 100) / 100 })),
        );
        await db.sql`update price_observations set observed_at = now() - interval '8 days', observed_on = utc_day(now() - interval '8 days') where scrape_run_id = ${old}`;
        await scrape(store, zip, region, items);
        for (const l of items) listings.push({ store, zip, region, l, old: 0 });
      }
    }
    const subs = [];
    for (let i = 0; i < 40; i++) {
      const s = {
        region: rand() < 0.3 ? null : pick(regions),
        eggType: rand() < 0.3 ? null : pick(types),
        stores: rand() < 0.6 ? [] : [pick(stores)],
        threshold: rand() < 0.5 ? null : Math.round(rand() * 800) / 100,
      };
      const row = await subscribe({
        email: `rule${i}@example.test`,
        region: s.region,
        eggType: s.eggType,
        stores: s.stores,
        threshold: s.threshold,
        frequency: 'daily',
      });
      subs.push({ id: row.id, ...s });
    }
    const entries = await db.sql<
      {
        store_id: string;
        region: Region;
        egg_type: EggType;
        count: number;
        price: number;
        reference_price: number | null;
        product_id: number;
        location_id: number;
      }[]
    >`
      select l.store_id, l.region, p.egg_type, p.count, e.price, e.reference_price, e.product_id, e.location_id
      from price_entries e join store_locations l on l.id = e.location_id join products p on p.id = e.product_id
      where e.source = 'scrape' and (e.observed_at at time zone 'UTC')::date = ${day}::date`;
    const rows = (await dailyDigestMatches(db.sql, day)).filter((r) => r.role === 'match');
    for (const s of subs) {
      const expected = entries
        .filter((e) =>
          matchesSubscription(
            {
              region: s.region,
              egg_type: s.eggType,
              preferred_stores: s.stores as never[],
              price_threshold: s.threshold,
            },
            e,
          ),
        )
        .sort((a, b) => pricePerDozen(a.price, a.count) - pricePerDozen(b.price, b.count))
        .slice(0, 10)
        .map((e) => `${e.product_id}:${e.location_id}`);
      const got = rows.filter((r) => r.subscription_id === s.id).map((r) => `${r.product_id}:${r.location_id}`);
      expect(new Set(got), `subscription ${JSON.stringify(s)}`).toEqual(new Set(expected));
    }
    expect(listings.length).toBeGreaterThan(20);
  });
});
