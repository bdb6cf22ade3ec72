// Egress through the real tasks (graphile-worker's run-once API), a real local proxy with a user
// and password (test/egress/proxies.ts), the retailer stand-in walling this machine's address for
// Walmart, and the web process's REST answers: a ZIP run read through the proxy, Test connection
// showing the wall and the proxy, a proxy refusing its credentials, a coverage plan's budget
// counting the proxied requests, the pause on the last tier's walls, the email sender never going
// through a retailer's proxy, and the proxy's credentials in no log line, row or answer.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger, runOnce } from 'graphile-worker';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseEgressSettings, type EgressSettings } from '#shared/egress.ts';
import { STORE_IDS } from '#shared/vocabulary.ts';
import { createServer } from '#server/app.ts';
import { startVisitDay } from '#server/queries/coverage.ts';
import { queueEmail } from '#server/email/outbox.ts';
import { queueRun } from '#server/queries/scrape.ts';
import { createTestDatabase, type TestDatabase } from '../test/db.ts';
import { insertDirectoryStores, ordinaryZips } from '../test/directory-stores.ts';
import { EGRESS_ADDRESSES, startProxy, type TestProxy } from '../test/egress/proxies.ts';
import { runJobs as runQueuedJobs } from '../test/jobs.ts';
import { startStandIn, type StandInServer } from '../test/retailers/server.ts';
import { createAccount, type TestAccount } from '../test/users.ts';
import type { ScrapeConfig } from '#shared/scrape.ts';
import { taskList } from './tasks.ts';

const USER = 'acct-7781-zone-us';
const PASSWORD = 'Pr0xy-Pa55word';

let db: TestDatabase;
let standIn: StandInServer;
let residential: TestProxy;
let datacenter: TestProxy;
let server: ReturnType<typeof createServer>;
let base: string;
let admin: TestAccount;
const logs: string[] = [];
const answers: string[] = [];

const logger = new Logger(() => (level, message, meta) => {
  logs.push(`${level} ${message} ${meta ? JSON.stringify(meta) : ''}`);
});

function egress(vars: Record<string, string>): EgressSettings {
  const { settings, errors } = parseEgressSettings(vars);
  if (!settings) throw new Error(errors.join('; '));
  return settings;
}

const TIERS = () => egress({ SCRAPER_PROXY_TIERS_WALMART: `direct; residential=${residential.url}` });

beforeAll(async () => {
  db = await createTestDatabase();
  standIn = await startStandIn();
  residential = await startProxy({ username: USER, password: PASSWORD, egressAddress: EGRESS_ADDRESSES.residential });
  datacenter = await startProxy({ username: USER, password: PASSWORD, egressAddress: EGRESS_ADDRESSES.datacenter });
  server = createServer({
    sql: db.sql,
    port: 0,
    logLevel: 'silent',
    distDir: '/nonexistent',
    auth: { publicUrl: 'http://eggwatch.test', adminSetupKey: 'egress-setup-key-00' },
    egress: TIERS(),
  });
  base = await server.start();
  admin = await createAccount(db.sql, { role: 'admin' });
});
afterAll(async () => {
  await server.stop();
  await residential.close();
  await datacenter.close();
  await standIn.close();
  await db.drop();
});
beforeEach(async () => {
  standIn.reset();
  // Walmart walls this machine (and datacenter addresses); the residential proxy's address is served.
  standIn.setWalls({ walmart: [EGRESS_ADDRESSES.direct, EGRESS_ADDRESSES.datacenter] });
  await db.sql`delete from graphile_worker._private_jobs`;
  await db.sql`delete from egress_tiers`;
  await db.sql`delete from egress_usage`;
  await db.sql`delete from coverage_runs`;
  await db.sql`delete from coverage_plans`;
});

function scrape(settings: EgressSettings, over: Partial<ScrapeConfig> = {}): Partial<ScrapeConfig> {
  return {
    origins: Object.fromEntries(STORE_IDS.map((store) => [store, standIn.url])),
    credentials: { krogerClientId: 'test-client', krogerClientSecret: 'test-secret' },
    http: { delayMs: 0, retries: 1, timeoutMs: 5000, backoffBaseMs: 5, backoffCapMs: 20, maxRetryAfterMs: 3000 },
    egress: settings,
    visitChunkSize: 25,
    ...over,
  };
}

const runJobs = (config: Partial<ScrapeConfig>) =>
  runQueuedJobs(db, taskList({ sql: db.sql, email: { from: 'test@eggwatch.local' }, scrape: config }), {
    logger,
    untilDone: true,
  });

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${admin.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  answers.push(text);
  return {
    status: response.status,
    body: JSON.parse(text) as Record<string, unknown> & Array<Record<string, unknown>>,
  };
}

const usage = () =>
  db.sql<{ tier: string; requests: number; walls: number; failures: number }[]>`
    select tier, sum(requests)::int as requests, sum(walls)::int as walls, sum(failures)::int as failures
    from egress_usage where store_id = 'walmart' group by tier order by tier`;

/** Every text the database holds about runs, tests, tiers and jobs. */
async function storedTexts(): Promise<string[]> {
  const rows = await db.sql<{ text: string }[]>`
    select coalesce(message, '') as text from scrape_runs
    union all select coalesce(message, '') from scrape_run_zips
    union all select coalesce(message, '') || coalesce(result::text, '') from egress_tests
    union all select coalesce(reason, '') || tier from egress_tiers
    union all select coalesce(message, '') from coverage_runs
    union all select coalesce(message, '') from coverage_visits
    union all select coalesce(last_error, '') || payload::text from graphile_worker._private_jobs`;
  return rows.map((r) => r.text);
}

const leaks = (texts: string[]) => texts.filter((text) => text.includes(PASSWORD) || text.includes(USER));

describe('egress through the tasks and the web process', () => {
  it('reads a ZIP walled direct through the proxy, and Test connection shows the wall and the proxy', async () => {
    const config = scrape(TIERS());
    const runId = await db.sql.begin((tx) =>
      queueRun(tx, { store: 'walmart', zipCodes: ['10001'], requestedBy: null, trigger: 'manual' }),
    );
    await runJobs(config);
    const [run] = await db.sql<{ status: string; observations_written: number; requests: number }[]>`
      select status, observations_written, requests from scrape_runs where id = ${runId!}`;
    expect(run).toMatchObject({ status: 'succeeded' });
    expect(run!.observations_written).toBeGreaterThan(0);
    // One request met the wall direct; the rest went through the proxy, from its address.
    const walled = standIn.requests.filter((r) => r.from === EGRESS_ADDRESSES.direct);
    expect(walled).toHaveLength(1);
    expect(standIn.requests.slice(1).every((r) => r.from === EGRESS_ADDRESSES.residential)).toBe(true);
    expect(await usage()).toEqual([
      { tier: 'direct', requests: 1, walls: 1, failures: 0 },
      { tier: 'residential', requests: standIn.requests.length - 1, walls: 0, failures: 0 },
    ]);
    expect(run!.requests).toBe(standIn.requests.length);
    const [tier] = await db.sql<{ tier: string }[]>`select tier from egress_tiers where store_id = 'walmart'`;
    expect(tier!.tier).toBe('residential');

    // Test connection, from the tier the retailer starts at (its cool-off forgotten).
    await db.sql`delete from egress_tiers`;
    const started = await api('POST', '/scrapers/walmart/test', { zipCode: '10001' });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ store: 'walmart', zipCode: '10001', status: 'queued' });
    // One at a time per retailer.
    expect((await api('POST', '/scrapers/walmart/test', { zipCode: '10001' })).status).toBe(409);
    await runJobs(config);
    const test = await api('GET', `/scrapers/walmart/test/${String(started.body.id)}`);
    expect(test.body).toMatchObject({ status: 'succeeded', message: null });
    const result = test.body.result as {
      attempts: Array<Record<string, unknown>>;
      stores: number;
      listings: number;
      eggPrices: number;
      transport: string;
    };
    expect(result.attempts[0]).toMatchObject({
      step: 'locator',
      tier: 'direct',
      proxy: null,
      transport: 'got-scraping',
      status: 200,
      wall: 'PerimeterX',
    });
    expect(result.attempts[1]).toMatchObject({
      step: 'locator',
      tier: 'residential',
      proxy: residential.label,
      status: 200,
      wall: null,
    });
    expect(result.attempts.at(-1)).toMatchObject({ step: 'listings', tier: 'residential', status: 200 });
    expect(result.stores).toBe(1);
    expect(result.listings).toBeGreaterThan(0);
    expect(result.eggPrices).toBeGreaterThan(0);

    // The admin overview: the proxy by host and port, the tier in use, the last 24 hours by tier.
    const overview = await api('GET', '/scrapers/egress');
    const walmart = overview.body.find((r) => r.store === 'walmart')!;
    expect(walmart).toMatchObject({
      tiers: [
        { name: 'direct', proxies: [] },
        { name: 'residential', proxies: [{ label: residential.label, protocol: 'http', authenticated: true }] },
      ],
      transport: 'got-scraping',
      tierInUse: { name: 'residential' },
    });
    expect(walmart.lastDay).toEqual([
      expect.objectContaining({ tier: 'direct', requests: 2, walls: 2 }),
      expect.objectContaining({ tier: 'residential', walls: 0 }),
    ]);
    expect((walmart.latestTest as { id: number }).id).toBe(started.body.id);

    // Nowhere a credential: the worker's log lines, the rows, the answers.
    expect(leaks([...logs, ...(await storedTexts()), ...answers])).toEqual([]);
    expect(logs.join('\n')).toContain(`walled by PerimeterX at the direct tier; moving to the residential tier`);
  });

  it('fails a run whose proxy refuses its credentials, naming the proxy by host and port only', async () => {
    const wrong = residential.url.replace(encodeURIComponent(PASSWORD), 'not-the-password');
    const config = scrape(egress({ SCRAPER_PROXY_URLS_WALMART: wrong }));
    const runId = await db.sql.begin((tx) =>
      queueRun(tx, { store: 'walmart', zipCodes: ['10001'], requestedBy: null, trigger: 'manual' }),
    );
    await runJobs(config);
    const [zip] = await db.sql<{ status: string; message: string }[]>`
      select status, message from scrape_run_zips where run_id = ${runId!}`;
    expect(zip).toEqual({
      status: 'failed',
      message: `no usable proxy for Walmart: ${residential.label} refused the credentials (407)`,
    });
    expect(await usage()).toEqual([{ tier: 'proxy', requests: 1, walls: 0, failures: 1 }]);
    expect(leaks([...logs, ...(await storedTexts())]).join('\n')).not.toContain('not-the-password');
    expect(leaks([...logs, ...(await storedTexts())])).toEqual([]);
  });

  it("counts the proxied requests in a coverage plan's budget, and pauses on the last tier's walls", async () => {
    await insertDirectoryStores(db.sql, 'walmart', ordinaryZips(4, 30001));
    await db.sql`
      insert into coverage_plans (store_id, scope, revisit_days, daily_request_budget)
      values ('walmart', ${db.sql.json({ kind: 'nationwide' })}, 1, 1000)`;
    const config = scrape(TIERS());
    const { runId } = await startVisitDay(db.sql, { store: 'walmart', userId: null, trigger: 'manual' });
    await runJobs(config);
    const [run] = await db.sql<{ status: string; requests: number }[]>`
      select status, requests from coverage_runs where id = ${runId}`;
    expect(run!.status).toBe('succeeded');
    // Every request the visits sent counts: the walled one direct and those through the proxy.
    expect(run!.requests).toBe(standIn.requests.length);
    const totals = await usage();
    expect(totals.reduce((n, t) => n + t.requests, 0)).toBe(run!.requests);
    const tiers = await db.sql<
      { egress_tier: string }[]
    >`select distinct egress_tier from coverage_visits where run_id = ${runId}`;
    expect(tiers).toEqual([{ egress_tier: 'residential' }]);
    // The next visit day of the day has what the first left of the budget.
    await db.sql`update store_locations set last_visit_at = null where store_id = 'walmart'`;
    const next = await startVisitDay(db.sql, { store: 'walmart', userId: null, trigger: 'manual' });
    await runOnce({
      connectionString: db.url,
      taskList: {
        coverage__visit_day: taskList({ sql: db.sql, email: { from: 'test@eggwatch.local' }, scrape: config })
          .coverage__visit_day!,
      },
      logger,
    });
    const [planned] = await db.sql<{ message: string }[]>`select message from coverage_runs where id = ${next.runId}`;
    expect(planned!.message).toContain(
      `${(1000 - run!.requests).toLocaleString('en-US')} requests of the day's budget left`,
    );
  });

  it('pauses a plan when its last tier walls most of a day, not for walls below it', async () => {
    await insertDirectoryStores(db.sql, 'walmart', ordinaryZips(21, 40001));
    await db.sql`
      insert into coverage_plans (store_id, scope, revisit_days, daily_request_budget)
      values ('walmart', ${db.sql.json({ kind: 'nationwide' })}, 1, 10000)`;
    // The last tier's proxy leaves from a walled address too.
    const config = scrape(egress({ SCRAPER_PROXY_TIERS_WALMART: `direct; residential=${datacenter.url}` }));
    const { runId } = await startVisitDay(db.sql, { store: 'walmart', userId: null, trigger: 'manual' });
    await runJobs(config);
    const [run] = await db.sql<{ status: string; message: string }[]>`
      select status, message from coverage_runs where id = ${runId}`;
    // The first visit met the wall through the proxy; the others found its only proxy resting.
    const kinds = await db.sql<{ kind: string; egress_tier: string }[]>`
      select distinct kind, egress_tier from coverage_visits where run_id = ${runId}`;
    expect(kinds).toEqual([{ kind: 'blocked', egress_tier: 'residential' }]);
    expect(run!.status).toBe('paused');
    expect(run!.message).toMatch(
      /^Paused: 2\d of today's 2\d visits of Walmart stores through its last egress tier \(residential\) were blocked by its bot protection/,
    );
  });
});

describe('what never goes through a retailer proxy', () => {
  it('sends email directly although every retailer has a proxy', async () => {
    const received: string[] = [];
    const resend = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push(req.socket.remoteAddress ?? '');
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ id: 'resend-message-1' }));
      });
    });
    await new Promise<void>((resolve) => resend.listen(0, '127.0.0.1', resolve));
    try {
      const carried = residential.carried;
      await db.sql.begin((tx) =>
        queueEmail(tx, { to: 'shopper@example.test', subject: 's', html: '<p>x</p>', text: 'x' }),
      );
      await runOnce({
        connectionString: db.url,
        taskList: taskList({
          sql: db.sql,
          email: {
            from: 'test@eggwatch.local',
            resendApiKey: 're_test',
            resendBaseUrl: `http://127.0.0.1:${(resend.address() as AddressInfo).port}`,
          },
          scrape: scrape(egress({ SCRAPER_PROXY_URLS: residential.url })),
        }),
        logger,
      });
      expect(received).toEqual(['127.0.0.1']);
      expect(residential.carried).toBe(carried);
    } finally {
      resend.close();
    }
  });
});
