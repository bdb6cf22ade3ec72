// The egress paths over HTTP: administrators only (401 without a session, 403 for a user, nothing
// queued), bad input answers 400 naming what is wrong, Test connection is rate-limited per
// administrator (429), the overview names proxies by host and port and never their credentials,
// and every path is in the OpenAPI document.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseEgressSettings } from '#shared/egress.ts';
import type { TestDatabase } from '../../test/db.ts';
import { createAccount, type TestAccount } from '../../test/users.ts';
import { ACCOUNT_SETTINGS, restServer } from '../../test/rest.ts';

const PASSWORD = 'S3cret-proxy-pw';

const { settings } = parseEgressSettings({
  SCRAPER_PROXY_TIERS_TARGET: `direct; residential=http://acct-991:${PASSWORD}@gw.example.com:7777`,
  SCRAPER_TRANSPORT_TARGET: 'impit',
});
const rest = restServer({ server: { scrapeDelayMs: 2000, egress: settings!, auth: ACCOUNT_SETTINGS } });
const { call } = rest;
let db: TestDatabase;
let user: TestAccount;
let admin: TestAccount;

beforeAll(async () => {
  db = rest.db;
  user = await createAccount(db.sql);
  admin = await createAccount(db.sql, { role: 'admin' });
});
beforeEach(async () => {
  await db.sql`delete from egress_tests`;
  await db.sql`delete from rate_limits`;
  await db.sql`delete from graphile_worker._private_jobs`;
});

const queued = async () => (await db.sql<{ n: number }[]>`select count(*)::int as n from egress_tests`)[0]!.n;

describe('egress over REST', () => {
  it('is for administrators only', async () => {
    expect((await call('GET', '/api/scrapers/egress')).status).toBe(401);
    expect((await call('GET', '/api/scrapers/egress', { as: user })).status).toBe(403);
    expect((await call('POST', '/api/scrapers/target/test', { body: { zipCode: '10001' } })).status).toBe(401);
    expect((await call('POST', '/api/scrapers/target/test', { as: user, body: { zipCode: '10001' } })).status).toBe(
      403,
    );
    expect(await queued()).toBe(0);
  });

  it('answers 400 naming the parameter for a bad store or ZIP code', async () => {
    const badZip = await call('POST', '/api/scrapers/target/test', { as: admin, body: { zipCode: '1000' } });
    expect(badZip.status).toBe(400);
    expect(badZip.body.message).toContain('zipCode must be a 5-digit ZIP code');
    const notState = await call('POST', '/api/scrapers/target/test', { as: admin, body: { zipCode: '00000' } });
    expect(notState.body.message).toContain('zipCode must be a ZIP code of a US state');
    const badStore = await call('POST', '/api/scrapers/costco/test', { as: admin, body: { zipCode: '10001' } });
    expect(badStore.status).toBe(400);
    expect(badStore.body.message).toContain('store must be one of walmart, target');
    expect((await call('GET', '/api/scrapers/walmart/test/1', { as: admin })).status).toBe(404);
    expect(await queued()).toBe(0);
  });

  it('queues a test with its job in the retailer’s test queue, one at a time, at most six a minute', async () => {
    const first = await call('POST', '/api/scrapers/target/test', { as: admin, body: { zipCode: '10001' } });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ store: 'target', zipCode: '10001', status: 'queued', result: null });
    const [job] = await db.sql<{ task: string; queue: string | null }[]>`
      select t.identifier as task, q.queue_name as queue from graphile_worker._private_jobs j
      join graphile_worker._private_tasks t on t.id = j.task_id
      left join graphile_worker._private_job_queues q on q.id = j.job_queue_id`;
    expect(job).toEqual({ task: 'egress__test', queue: 'egress-test:target' });
    expect((await call('POST', '/api/scrapers/target/test', { as: admin, body: { zipCode: '10001' } })).status).toBe(
      409,
    );
    // The test of another retailer's id is not found under this one.
    expect((await call('GET', `/api/scrapers/walmart/test/${first.body.id}`, { as: admin })).status).toBe(404);
    expect((await call('GET', `/api/scrapers/target/test/${first.body.id}`, { as: admin })).body.status).toBe('queued');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await call('POST', '/api/scrapers/aldi/test', { as: admin, body: { zipCode: '10001' } })).status);
    // Six attempts in the minute were allowed (one 202 and the 409s among them); the seventh is refused.
    expect(statuses.at(-1)).toBe(429);
  });

  it('shows each retailer’s egress by host and port, never the credentials', async () => {
    const overview = await call('GET', '/api/scrapers/egress', { as: admin });
    expect(overview.status).toBe(200);
    const target = overview.body.find((r: { store: string }) => r.store === 'target');
    expect(target).toMatchObject({
      tiers: [
        { name: 'direct', proxies: [] },
        { name: 'residential', proxies: [{ label: 'gw.example.com:7777', protocol: 'http', authenticated: true }] },
      ],
      transport: 'impit',
      requestsPerMinute: 30,
      paceSource: 'delay',
      tierInUse: { name: 'direct', coolUntil: null },
    });
    expect(overview.body.find((r: { store: string }) => r.store === 'kroger').dailyBudget).toBe(9000);
    expect(overview.text).not.toContain(PASSWORD);
    expect(overview.text).not.toContain('acct-991');
  });

  it('documents every path in OpenAPI', async () => {
    const doc = (await call('GET', '/api/openapi.json')).body;
    expect(doc.paths['/api/scrapers/egress'].get.responses).toHaveProperty('403');
    const test = doc.paths['/api/scrapers/{store}/test'].post;
    expect(test.responses).toHaveProperty('202');
    expect(test.responses).toHaveProperty('409');
    expect(test.responses).toHaveProperty('429');
    expect(test.requestBody.content['application/json'].schema.properties).toHaveProperty('zipCode');
    expect(doc.paths['/api/scrapers/{store}/test/{id}'].get.responses).toHaveProperty('404');
  });
});
