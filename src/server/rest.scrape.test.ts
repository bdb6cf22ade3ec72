// The scraper paths over HTTP: administrators only, ZIP checks that name the bad entries, one
// active run per store (409), the run and its job written together, status keyed by store, the
// run history and the schedule settings.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../../test/db.ts';
import { createAccount, type TestAccount } from '../../test/users.ts';
import { ACCOUNT_SETTINGS, restServer } from '../../test/rest.ts';

const rest = restServer({ server: { auth: ACCOUNT_SETTINGS } });
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
  await db.sql`delete from scrape_runs`;
  await db.sql`delete from graphile_worker._private_jobs`;
});

const jobs = () =>
  db.sql<{ task_identifier: string; key: string; payload: { runId: number } }[]>`
    select t.identifier as task_identifier, j.key, j.payload
    from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id order by j.id`;

describe('authorization', () => {
  const paths: Array<[string, string, unknown?]> = [
    ['POST', '/api/scrape/walmart', { zipCodes: ['10001'] }],
    ['POST', '/api/scrape/whole-foods', { zipCodes: ['10001'] }],
    ['POST', '/api/scrape/all', { zipCodes: ['10001'] }],
    ['GET', '/api/scrape/status'],
    ['GET', '/api/scrape/all-status'],
    ['GET', '/api/scrape/runs'],
    ['GET', '/api/scrape/settings'],
    ['PUT', '/api/scrape/settings', { dailyEnabled: true, hourUtc: 5, zipCodes: ['10001'] }],
  ];
  it.each(paths)('%s %s: 401 without a session, 403 for a user, nothing written', async (method, path, body) => {
    expect((await call(method, path, { body })).status).toBe(401);
    const forbidden = await call(method, path, { as: user, body });
    expect(forbidden).toEqual({ status: 403, body: { message: 'You do not have administrator privileges' } });
    expect(await db.sql`select id from scrape_runs`).toHaveLength(0);
    expect(await jobs()).toHaveLength(0);
    const [settings] = await db.sql`select daily_enabled from scrape_settings`;
    expect(settings!.daily_enabled).toBe(false);
  });
});

describe('POST /api/scrape/{store}', () => {
  it('queues a run and its job together and answers 202 with the run id; ZIPs are trimmed and deduplicated', async () => {
    const result = await call('POST', '/api/scrape/target', {
      as: admin,
      body: { zipCodes: [' 10001', '60611 ', '10001', ''] },
    });
    expect(result.status).toBe(202);
    expect(result.body).toMatchObject({
      store: 'target',
      status: 'queued',
      zipCodes: ['10001', '60611'],
      message: 'The Target scraper is queued for 2 ZIP codes.',
    });
    const [run] = await db.sql`select id, store_id, zip_codes, status, total, requested_by, trigger from scrape_runs`;
    expect(run).toMatchObject({
      id: result.body.runId,
      store_id: 'target',
      zip_codes: ['10001', '60611'],
      status: 'queued',
      total: 2,
      requested_by: admin.user.id,
      trigger: 'manual',
    });
    expect(await jobs()).toEqual([
      { task_identifier: 'stores__scrape', key: `scrape:${run!.id}`, payload: { runId: run!.id } },
    ]);
  });

  it('answers 409 while the store has a run queued or running, and accepts another store', async () => {
    expect((await call('POST', '/api/scrape/walmart', { as: admin, body: { zipCodes: ['10001'] } })).status).toBe(202);
    const again = await call('POST', '/api/scrape/walmart', { as: admin, body: { zipCodes: ['60611'] } });
    expect(again).toEqual({
      status: 409,
      body: { message: 'A Walmart scrape is already queued or running; wait for it to finish.' },
    });
    await db.sql`update scrape_runs set status = 'running'`;
    expect((await call('POST', '/api/scrape/walmart', { as: admin, body: { zipCodes: ['60611'] } })).status).toBe(409);
    expect((await call('POST', '/api/scrape/aldi', { as: admin, body: { zipCodes: ['60611'] } })).status).toBe(202);
    await db.sql`update scrape_runs set status = 'succeeded' where store_id = 'walmart'`;
    expect((await call('POST', '/api/scrape/walmart', { as: admin, body: { zipCodes: ['60611'] } })).status).toBe(202);
    expect(await db.sql`select id from scrape_runs`).toHaveLength(3);
    expect(await jobs()).toHaveLength(3);
  });

  it.each([
    [{ zipCodes: ['1234', 'abcde', '10001'] }, 'zipCodes: Not 5-digit ZIP codes: "1234", "abcde"'],
    [{ zipCodes: ['00601'] }, 'zipCodes: Not ZIP codes of a US state: 00601'],
    [{ zipCodes: [] }, 'zipCodes: Enter at least one ZIP code'],
    [{ zipCodes: [' ', ''] }, 'zipCodes: Enter at least one ZIP code'],
    [
      { zipCodes: Array.from({ length: 26 }, (_, i) => String(10001 + i)) },
      'zipCodes: At most 25 ZIP codes per run (26 given)',
    ],
    [{ zipCodes: [10001] }, 'zipCodes.0: each ZIP code must be a string'],
    [{ zipCodes: '10001' }, 'zipCodes: zipCodes must be a list of ZIP codes'],
    [{}, 'zipCodes: zipCodes must be a list of ZIP codes'],
    [{ zipCodes: ['10001'], extra: 1 }, 'Unrecognized key: "extra"'],
    [[1, 2], 'zipCodes: zipCodes must be a list of ZIP codes'],
  ])('refuses %j with 400 and writes nothing', async (body, message) => {
    const result = await call('POST', '/api/scrape/kroger', { as: admin, body });
    expect(result.status).toBe(400);
    expect(result.body.message).toBe(message);
    expect(await db.sql`select id from scrape_runs`).toHaveLength(0);
    expect(await jobs()).toHaveLength(0);
  });

  it('refuses an unknown store and malformed JSON with 400', async () => {
    const unknown = await call('POST', '/api/scrape/costco', { as: admin, body: { zipCodes: ['10001'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(
      /^store: store must be one of walmart, target, kroger, albertsons, whole-foods, aldi/,
    );
    expect((await call('POST', '/api/scrape/walmart', { as: admin, raw: '{"zipCodes": [' })).status).toBe(400);
  });

  it('refuses an inactive store with 409', async () => {
    await db.sql`update stores set active = false where id = 'aldi'`;
    try {
      const result = await call('POST', '/api/scrape/aldi', { as: admin, body: { zipCodes: ['10001'] } });
      expect(result).toEqual({
        status: 409,
        body: { message: 'Aldi is inactive; activate the store before scraping it.' },
      });
    } finally {
      await db.sql`update stores set active = true where id = 'aldi'`;
    }
  });
});

describe('POST /api/scrape/all (Run all)', () => {
  it("queues every active store's run over the same ZIP codes, each with its job, and names the stores already busy or inactive", async () => {
    await db.sql`update stores set active = false where id = 'kroger'`;
    try {
      expect((await call('POST', '/api/scrape/aldi', { as: admin, body: { zipCodes: ['30301'] } })).status).toBe(202);
      const result = await call('POST', '/api/scrape/all', {
        as: admin,
        body: { zipCodes: ['10001', ' 60611', '10001'] },
      });
      expect(result.status).toBe(202);
      expect(result.body).toMatchObject({
        busy: ['aldi'],
        inactive: ['kroger'],
        zipCodes: ['10001', '60611'],
        message:
          'Queued 4 scrapers for 2 ZIP codes: Walmart, Target, Albertsons, Whole Foods. Already queued or running: Aldi.',
      });
      expect(result.body.queued.map((q: { store: string }) => q.store)).toEqual([
        'walmart',
        'target',
        'albertsons',
        'whole-foods',
      ]);
      const runs = await db.sql<{ id: number; store_id: string; zip_codes: string[]; requested_by: string }[]>`
        select id, store_id, zip_codes, requested_by from scrape_runs where store_id <> 'aldi' order by id`;
      expect(runs.map((r) => [r.store_id, r.zip_codes, r.requested_by])).toEqual(
        ['walmart', 'target', 'albertsons', 'whole-foods'].map((store) => [store, ['10001', '60611'], admin.user.id]),
      );
      expect(runs.map((r) => r.id)).toEqual(result.body.queued.map((q: { runId: number }) => q.runId));
      expect((await jobs()).map((j) => j.payload.runId).sort()).toEqual(
        [...runs.map((r) => r.id), (await db.sql`select id from scrape_runs where store_id = 'aldi'`)[0]!.id].sort(),
      );

      // Everything active is busy now: nothing queued is a conflict that says why.
      const again = await call('POST', '/api/scrape/all', { as: admin, body: { zipCodes: ['10001'] } });
      expect(again).toEqual({
        status: 409,
        body: {
          message:
            'No scraper started: every active store already has a run queued or running (Walmart, Target, Albertsons, Whole Foods, Aldi).',
        },
      });
      expect(await db.sql`select id from scrape_runs`).toHaveLength(5);
    } finally {
      await db.sql`update stores set active = true where id = 'kroger'`;
    }
  });

  it('refuses bad ZIP codes with 400 naming them, and writes nothing', async () => {
    const result = await call('POST', '/api/scrape/all', { as: admin, body: { zipCodes: ['1234', '10001', 'abcde'] } });
    expect(result).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'zipCodes: Not 5-digit ZIP codes: "1234", "abcde"' }),
    });
    expect(await db.sql`select id from scrape_runs`).toHaveLength(0);
  });
});

describe('status', () => {
  it('all-status is keyed by every store; never-run stores say so', async () => {
    const result = await call('GET', '/api/scrape/all-status', { as: admin });
    expect(result.status).toBe(200);
    expect(Object.keys(result.body)).toEqual(['walmart', 'target', 'kroger', 'albertsons', 'whole-foods', 'aldi']);
    expect(result.body['whole-foods']).toEqual({
      active: false,
      lastRun: null,
      nextScheduledRun: null,
      message: 'The Whole Foods scraper has not run yet.',
      run: null,
      lastSuccessAt: null,
      stale: true,
    });
  });

  it("status is Walmart's: active while queued, with the run's progress", async () => {
    const started = await call('POST', '/api/scrape/walmart', { as: admin, body: { zipCodes: ['10001', '60611'] } });
    const status = await call('GET', '/api/scrape/status', { as: admin });
    expect(status.body).toMatchObject({
      active: true,
      message: 'Queued: waiting for a worker to start the Walmart scraper.',
      run: { id: started.body.runId, status: 'queued', progress: 0, total: 2 },
    });
    expect(Date.parse(status.body.lastRun)).not.toBeNaN();
  });

  it('reports a finished run, its per-ZIP outcomes and freshness', async () => {
    // Within the hours after which a store's prices count as stale, whenever the test runs.
    const first = new Date(Date.now() - 3_600_000);
    const second = new Date(first.getTime() + 60_000);
    const [run] = await db.sql<{ id: number }[]>`
      insert into scrape_runs (store_id, zip_codes, total, status, started_at, finished_at)
      values ('kroger', '{10001,60611}', 2, 'partial', now() - interval '1 minute', now()) returning id`;
    await db.sql`
      insert into scrape_run_zips (run_id, zip, status, message, listings_seen, accepted, observations_written, skipped, rejected, started_at,
                                   requests, retries, rate_limit_waits, rate_limit_wait_ms, finished_at) values
        (${run!.id}, '10001', 'succeeded', null, 20, 12, 12, '{"egg-product": 3}', '{"no-count": 1}', now(), 6, 2, 1, 30000, ${first}),
        (${run!.id}, '60611', 'failed', 'blocked by Kroger''s bot protection', 0, 0, 0, '{}', '{}', now(), 1, 0, 0, 0, ${second})`;
    const status = (await call('GET', '/api/scrape/all-status', { as: admin })).body.kroger;
    expect(status).toMatchObject({
      active: false,
      message:
        "Last run finished with failures: 12 prices from 1 of 2 ZIP codes; 60611: blocked by Kroger's bot protection",
      stale: false,
      run: {
        status: 'partial',
        progress: 2,
        total: 2,
        listingsSeen: 20,
        accepted: 12,
        observationsWritten: 12,
        skipped: { 'egg-product': 3 },
        rejected: { 'no-count': 1 },
      },
    });
    const runs = await call('GET', '/api/scrape/runs?store=kroger&limit=5', { as: admin });
    expect(runs.body).toHaveLength(1);
    expect(runs.body[0].zips).toEqual([
      {
        zip: '10001',
        status: 'succeeded',
        message: null,
        locationName: null,
        listingsSeen: 20,
        accepted: 12,
        observations: 12,
        skipped: { 'egg-product': 3 },
        rejected: { 'no-count': 1 },
        requests: 6,
        retries: 2,
        rateLimitWaits: 1,
        rateLimitWaitMs: 30000,
        finishedAt: first.toISOString(),
      },
      {
        zip: '60611',
        status: 'failed',
        message: "blocked by Kroger's bot protection",
        locationName: null,
        listingsSeen: 0,
        accepted: 0,
        observations: 0,
        skipped: {},
        rejected: {},
        requests: 1,
        retries: 0,
        rateLimitWaits: 0,
        rateLimitWaitMs: 0,
        finishedAt: second.toISOString(),
      },
    ]);
    expect((await call('GET', `/api/scrape/runs/${run!.id}`, { as: admin })).body.id).toBe(run!.id);
    expect((await call('GET', '/api/scrape/runs/999999', { as: admin })).status).toBe(404);
    expect((await call('GET', '/api/scrape/runs?limit=0', { as: admin })).status).toBe(400);
    expect((await call('GET', '/api/scrape/runs?store=costco', { as: admin })).status).toBe(400);
  });
});

describe('settings', () => {
  it('saves the daily schedule and the next run follows it', async () => {
    const saved = await call('PUT', '/api/scrape/settings', {
      as: admin,
      body: { dailyEnabled: true, hourUtc: 23, zipCodes: ['30301', ' 77001'] },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ dailyEnabled: true, hourUtc: 23, zipCodes: ['30301', '77001'] });
    const next = new Date(saved.body.nextScheduledRun);
    expect(next.getUTCHours()).toBe(23);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);
    const status = (await call('GET', '/api/scrape/all-status', { as: admin })).body;
    expect(status.aldi.nextScheduledRun).toBe(saved.body.nextScheduledRun);
    const off = await call('PUT', '/api/scrape/settings', {
      as: admin,
      body: { dailyEnabled: false, hourUtc: 23, zipCodes: ['30301'] },
    });
    expect(off.body.nextScheduledRun).toBeNull();
  });

  it.each([
    [{ dailyEnabled: true, hourUtc: 24, zipCodes: ['10001'] }, 'hourUtc: hourUtc must be 0 to 23'],
    [{ dailyEnabled: 'yes', hourUtc: 2, zipCodes: ['10001'] }, 'dailyEnabled: dailyEnabled must be true or false'],
    [{ dailyEnabled: true, hourUtc: 2, zipCodes: ['1'] }, 'zipCodes: Not 5-digit ZIP codes: "1"'],
  ])('refuses %j and keeps the saved settings', async (body, message) => {
    const before = await db.sql`select daily_enabled, hour_utc, zip_codes from scrape_settings`;
    const result = await call('PUT', '/api/scrape/settings', { as: admin, body });
    expect(result).toEqual({ status: 400, body: expect.objectContaining({ message }) });
    expect(await db.sql`select daily_enabled, hour_utc, zip_codes from scrape_settings`).toEqual(before);
  });
});

it('the OpenAPI document lists the scraper paths', async () => {
  const doc = (await call('GET', '/api/openapi.json')).body;
  expect(Object.keys(doc.paths)).toEqual(
    expect.arrayContaining([
      '/api/scrape/{store}',
      '/api/scrape/status',
      '/api/scrape/all-status',
      '/api/scrape/runs',
      '/api/scrape/settings',
    ]),
  );
  expect(doc.paths['/api/scrape/{store}'].post.responses).toHaveProperty('202');
  expect(doc.paths['/api/scrape/{store}'].post.responses).toHaveProperty('403');
});
