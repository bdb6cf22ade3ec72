// The coverage paths over HTTP: administrators only (401 without a session, 403 for a user,
// nothing written), bad input answers 400 naming what is wrong, a start writes its run and its job
// together (202) and a second while one runs is a 409, a visit day needs a plan, the figures and
// the plan's cost; the public directory of a chain's stores pages with X-Total-Count; every path
// is in the OpenAPI document.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ESTIMATED_REQUESTS_PER_VISIT } from '#shared/coverage.ts';
import type { TestDatabase } from '../../test/db.ts';
import { createAccount, type TestAccount } from '../../test/users.ts';
import { ACCOUNT_SETTINGS, restServer } from '../../test/rest.ts';

const rest = restServer({ server: { scrapeDelayMs: 2000, auth: ACCOUNT_SETTINGS } });
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
  await db.sql`delete from coverage_runs`;
  await db.sql`delete from coverage_plans`;
  await db.sql`delete from store_locations where retailer_location_id like 'rc-%'`;
  await db.sql`delete from graphile_worker._private_jobs`;
});

const jobs = () =>
  db.sql<{ task: string; queue: string | null; payload: { runId: number } }[]>`
    select t.identifier as task, q.queue_name as queue, j.payload
    from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
    left join graphile_worker._private_job_queues q on q.id = j.job_queue_id order by j.id`;

async function addStore(store: string, id: string, state: string, zip: string, extra: { lastPricedAt?: Date } = {}) {
  await db.sql`
    insert into store_locations (store_id, zip, region, retailer_location_id, name, address, city, state, latitude, longitude, coordinates_source, last_priced_at)
    values (${store}, ${zip}, 'northeast', ${`rc-${id}`}, ${`Store ${id}`}, '1 Main St', 'Town', ${state}, 41.8, -71.4, 'retailer', ${extra.lastPricedAt ?? null})`;
}

describe('authorization', () => {
  const paths: Array<[string, string, unknown?]> = [
    ['GET', '/api/coverage'],
    ['POST', '/api/coverage/walmart/discover', { scope: { kind: 'states', states: ['RI'] } }],
    ['PUT', '/api/coverage/walmart/plan', { scope: { kind: 'nationwide' }, revisitDays: 1 }],
    ['POST', '/api/coverage/walmart/visit'],
  ];
  it.each(paths)('%s %s: 401 without a session, 403 for a user, nothing written', async (method, path, body) => {
    expect((await call(method, path, { body })).status).toBe(401);
    const forbidden = await call(method, path, { as: user, body });
    expect({ status: forbidden.status, body: forbidden.body }).toEqual({
      status: 403,
      body: { message: 'You do not have administrator privileges' },
    });
    expect(await db.sql`select id from coverage_runs`).toHaveLength(0);
    expect(await db.sql`select store_id from coverage_plans`).toHaveLength(0);
    expect(await jobs()).toHaveLength(0);
  });

  it('tRPC: the coverage procedures refuse a user too', async () => {
    const response = await fetch(
      `${rest.base}/trpc/coverage.scopeSize?input=${encodeURIComponent(JSON.stringify({ store: 'walmart', scope: { kind: 'nationwide' } }))}`,
      {
        headers: { authorization: `Bearer ${user.token}` },
      },
    );
    expect(response.status).toBe(403);
  });
});

describe('POST /api/coverage/{store}/discover', () => {
  it('queues a discovery and its job in the retailer queue and answers 202 with the run id; 409 while it is queued', async () => {
    const result = await call('POST', '/api/coverage/kroger/discover', {
      as: admin,
      body: { scope: { kind: 'states', states: ['ri', 'UT'] } },
    });
    expect(result.status).toBe(202);
    expect(result.body).toMatchObject({
      store: 'kroger',
      status: 'queued',
      scope: { kind: 'states', states: ['RI', 'UT'] },
      message: 'Kroger discovery is queued: 2 states: RI, UT.',
    });
    const [run] = await db.sql`select id, kind, scope, created_by from coverage_runs`;
    expect(run).toEqual({
      id: result.body.runId,
      kind: 'discover',
      scope: { kind: 'states', states: ['RI', 'UT'] },
      created_by: admin.user.id,
    });
    expect(await jobs()).toEqual([
      { task: 'coverage__discover', queue: 'retailer:kroger', payload: { runId: run!.id } },
    ]);
    const again = await call('POST', '/api/coverage/kroger/discover', {
      as: admin,
      body: { scope: { kind: 'nationwide' } },
    });
    expect({ status: again.status, body: again.body }).toEqual({
      status: 409,
      body: { message: 'A Kroger discovery is already queued or running; wait for it to finish.' },
    });
  });

  it.each<[string, string, unknown, RegExp]>([
    [
      'unknown store',
      '/api/coverage/costco/discover',
      { scope: { kind: 'nationwide' } },
      /store must be one of walmart, target/,
    ],
    ['no scope', '/api/coverage/walmart/discover', {}, /scope/],
    [
      'bad kind',
      '/api/coverage/walmart/discover',
      { scope: { kind: 'planet' } },
      /scope.kind must be nationwide, states or zips/,
    ],
    [
      'bad states',
      '/api/coverage/walmart/discover',
      { scope: { kind: 'states', states: ['UT', 'XX', 'ZZ'] } },
      /Not US state codes: "XX", "ZZ"/,
    ],
    [
      'no states',
      '/api/coverage/walmart/discover',
      { scope: { kind: 'states', states: [] } },
      /Choose at least one state/,
    ],
    [
      'bad ZIPs',
      '/api/coverage/walmart/discover',
      { scope: { kind: 'zips', zipCodes: ['8410', 'abcde'], radiusMiles: 25 } },
      /Not 5-digit ZIP codes: "8410", "abcde"/,
    ],
    [
      'radius too large',
      '/api/coverage/walmart/discover',
      { scope: { kind: 'zips', zipCodes: ['84101'], radiusMiles: 500 } },
      /radiusMiles must be 1 to 100/,
    ],
    ['unknown field', '/api/coverage/walmart/discover', { scope: { kind: 'nationwide' }, extra: 1 }, /extra/],
  ])('400 for %s, nothing written', async (_name, path, body, message) => {
    const result = await call('POST', path, { as: admin, body });
    expect(result.status).toBe(400);
    expect(result.body.message).toMatch(message);
    expect(await db.sql`select id from coverage_runs`).toHaveLength(0);
    expect(await jobs()).toHaveLength(0);
  });

  it('400 for a body that is not JSON', async () => {
    const result = await call('POST', '/api/coverage/walmart/discover', { as: admin, raw: '{"scope":' });
    expect(result.status).toBe(400);
  });
});

describe('PUT /api/coverage/{store}/plan and POST /api/coverage/{store}/visit', () => {
  it("saves a plan with the retailer's default budget and its cost; a visit day then answers 202 and 409 while it runs", async () => {
    await addStore('target', 'ri1', 'RI', '02903');
    await addStore('target', 'ri2', 'RI', '02904');
    const noPlan = await call('POST', '/api/coverage/target/visit', { as: admin });
    expect({ status: noPlan.status, body: noPlan.body }).toEqual({
      status: 409,
      body: { message: 'Target has no coverage plan yet; save a plan before starting its visits.' },
    });

    const saved = await call('PUT', '/api/coverage/target/plan', {
      as: admin,
      body: { scope: { kind: 'states', states: ['RI'] }, revisitDays: 2 },
    });
    expect(saved.status).toBe(200);
    // 86,400,000 ms a day at a 2 s delay.
    expect(saved.body).toMatchObject({
      store: 'target',
      revisitDays: 2,
      dailyRequestBudget: 43_200,
      storesInScope: 2,
      pausedAt: null,
      scopeText: '1 state: RI',
    });
    expect(saved.body.requestsPerVisit).toEqual({
      value: ESTIMATED_REQUESTS_PER_VISIT.target,
      source: 'estimate',
      samples: 0,
    });
    expect(saved.body.cost).toMatchObject({
      storesPerDay: 1,
      requestsPerDay: ESTIMATED_REQUESTS_PER_VISIT.target,
      fits: true,
      shortestRevisitDays: 1,
    });

    const visit = await call('POST', '/api/coverage/target/visit', { as: admin });
    expect(visit.status).toBe(202);
    expect(visit.body).toMatchObject({ store: 'target', status: 'queued' });
    expect(await jobs()).toEqual([
      { task: 'coverage__visit_day', queue: 'retailer:target', payload: { runId: visit.body.runId } },
    ]);
    const again = await call('POST', '/api/coverage/target/visit', { as: admin });
    expect({ status: again.status, body: again.body }).toEqual({
      status: 409,
      body: { message: 'A Target visit day is already queued or running; wait for it to finish.' },
    });

    const overview = await call('GET', '/api/coverage', { as: admin });
    expect(overview.status).toBe(200);
    const target = overview.body.find((r: { store: string }) => r.store === 'target');
    expect(target).toMatchObject({
      known: 2,
      inScope: 2,
      inScopeBasis: 'plan',
      neverVisited: 2,
      delayMs: 2000,
      defaultBudget: 43_200,
      visit: { id: visit.body.runId, status: 'queued', active: true },
    });
    expect(target.plan).toMatchObject({ revisitDays: 2, storesInScope: 2, cost: { fits: true } });
    expect(target.states).toEqual([{ state: 'RI', known: 2, visitedDay: 0, share: 0 }]);
  });

  it.each<[string, string, unknown, RegExp]>([
    [
      'revisitDays 0',
      '/api/coverage/walmart/plan',
      { scope: { kind: 'nationwide' }, revisitDays: 0 },
      /revisitDays must be 1 to 30/,
    ],
    [
      'revisitDays 31',
      '/api/coverage/walmart/plan',
      { scope: { kind: 'nationwide' }, revisitDays: 31 },
      /revisitDays must be 1 to 30/,
    ],
    [
      'fractional revisitDays',
      '/api/coverage/walmart/plan',
      { scope: { kind: 'nationwide' }, revisitDays: 1.5 },
      /revisitDays must be a whole number of days/,
    ],
    [
      'budget 0',
      '/api/coverage/walmart/plan',
      { scope: { kind: 'nationwide' }, dailyRequestBudget: 0 },
      /dailyRequestBudget must be at least 1/,
    ],
    [
      'budget too large',
      '/api/coverage/walmart/plan',
      { scope: { kind: 'nationwide' }, dailyRequestBudget: 5_000_000 },
      /dailyRequestBudget must be at most 1,000,000/,
    ],
    [
      'budget as text',
      '/api/coverage/walmart/plan',
      { scope: { kind: 'nationwide' }, dailyRequestBudget: 'lots' },
      /dailyRequestBudget must be a number of requests/,
    ],
    ['no scope', '/api/coverage/walmart/plan', { revisitDays: 1 }, /scope/],
    ['unknown store', '/api/coverage/costco/plan', { scope: { kind: 'nationwide' } }, /store must be one of/],
  ])('plan: 400 for %s, nothing saved', async (_name, path, body, message) => {
    const result = await call('PUT', path, { as: admin, body });
    expect(result.status).toBe(400);
    expect(result.body.message).toMatch(message);
    expect(await db.sql`select store_id from coverage_plans`).toHaveLength(0);
  });

  it('visit: 400 for an unknown store', async () => {
    const result = await call('POST', '/api/coverage/costco/visit', { as: admin });
    expect(result.status).toBe(400);
    expect(result.body.message).toMatch(/store must be one of/);
  });

  it('saving resumes a paused plan', async () => {
    await addStore('aldi', 'p1', 'RI', '02903');
    await call('PUT', '/api/coverage/aldi/plan', { as: admin, body: { scope: { kind: 'nationwide' } } });
    await db.sql`update coverage_plans set paused_at = now(), paused_reason = '30 of 40 visits were blocked today'`;
    const paused = await call('POST', '/api/coverage/aldi/visit', { as: admin });
    expect({ status: paused.status, body: paused.body }).toEqual({
      status: 409,
      body: { message: "Aldi's plan is paused (30 of 40 visits were blocked today); save the plan to resume it." },
    });
    const resumed = await call('PUT', '/api/coverage/aldi/plan', {
      as: admin,
      body: { scope: { kind: 'nationwide' }, dailyRequestBudget: 100 },
    });
    expect(resumed.body).toMatchObject({ pausedAt: null, pausedReason: null, dailyRequestBudget: 100 });
    expect((await call('POST', '/api/coverage/aldi/visit', { as: admin })).status).toBe(202);
  });
});

describe('GET /api/stores/{storeId}/locations', () => {
  it("pages a chain's known open stores with X-Total-Count and links, without a session, by state", async () => {
    await db.sql`delete from store_locations where store_id = 'whole-foods' and retailer_location_id is not null`;
    const priced = new Date('2026-11-20T10:00:00Z');
    await addStore('whole-foods', 'a', 'RI', '02903', { lastPricedAt: priced });
    await addStore('whole-foods', 'b', 'RI', '02904');
    await addStore('whole-foods', 'c', 'MA', '02108');
    const page = await call('GET', '/api/stores/whole-foods/locations?limit=2');
    expect(page.status).toBe(200);
    expect(page.headers.get('x-total-count')).toBe('3');
    expect(page.headers.get('link')).toContain('rel="next"');
    expect(page.headers.get('access-control-allow-origin')).toBe('*');
    expect(page.body.map((l: { retailer_location_id: string }) => l.retailer_location_id)).toEqual(['rc-c', 'rc-a']);
    expect(page.body[1]).toMatchObject({
      name: 'Store a',
      address: '1 Main St',
      city: 'Town',
      state: 'RI',
      zip: '02903',
      latitude: 41.8,
      longitude: -71.4,
      last_priced_at: priced.toISOString(),
    });
    const ri = await call('GET', '/api/stores/whole-foods/locations?state=ri&offset=1');
    expect(ri.headers.get('x-total-count')).toBe('2');
    expect(ri.body.map((l: { retailer_location_id: string }) => l.retailer_location_id)).toEqual(['rc-b']);
  });

  it('404 for an unknown store; 400 for a bad state, limit or offset, or an unknown parameter', async () => {
    expect((await call('GET', '/api/stores/costco/locations')).status).toBe(404);
    for (const [query, message] of [
      ['state=XX', /state must be a two-letter US state code/],
      ['limit=0', /limit must be at least 1/],
      ['limit=ten', /limit must be a number/],
      ['offset=-1', /offset must be at least 0/],
      ['colour=blue', /colour/],
    ] as const) {
      const result = await call('GET', `/api/stores/walmart/locations?${query}`);
      expect(result.status, query).toBe(400);
      expect(result.body.message, query).toMatch(message);
    }
  });
});

describe('GET /api/stores/{storeId}/locations paging', () => {
  it('pages like every list: the first 1,000 without limit, a limit above 5,000 refused naming the maximum', async () => {
    const plain = await call('GET', '/api/stores/walmart/locations');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('link')).toContain('limit=1000&offset=0');
    const largest = await call('GET', '/api/stores/walmart/locations?limit=5000');
    expect(largest.status).toBe(200);
    expect(largest.headers.get('link')).toContain('limit=5000&offset=0');
    const large = await call('GET', '/api/stores/walmart/locations?limit=99999');
    expect(large.status).toBe(400);
    expect(large.body.message).toMatch(/limit must be at most 5000/);
  });
});

describe('OpenAPI', () => {
  it('documents every coverage path with its auth, 409 and the public directory with X-Total-Count', async () => {
    const doc = (await call('GET', '/api/openapi.json')).body;
    expect(doc.paths['/api/coverage'].get.responses).toHaveProperty('403');
    expect(doc.paths['/api/coverage/{store}/discover'].post.responses).toHaveProperty('202');
    expect(doc.paths['/api/coverage/{store}/discover'].post.responses).toHaveProperty('409');
    expect(
      doc.paths['/api/coverage/{store}/discover'].post.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('scope');
    expect(
      doc.paths['/api/coverage/{store}/plan'].put.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('dailyRequestBudget');
    expect(doc.paths['/api/coverage/{store}/visit'].post.responses).toHaveProperty('409');
    const locations = doc.paths['/api/stores/{storeId}/locations'].get;
    expect(locations.responses['200'].headers).toHaveProperty('X-Total-Count');
    expect(locations.parameters.map((p: { name: string }) => p.name)).toEqual(['storeId', 'state', 'limit', 'offset']);
  });
});
