// immediateMatches against a reference that works the rule out per subscription, the plain way:
// every price event of the source (an observation that is its listing's current entry, at a price
// other than the latest observation of a day before, or the first of its listing), every
// subscription, its scope, its threshold or the 5% drop, the events already alerted to it left
// out, the best ten by price per dozen. Many scopes and thresholds, previous prices a day and eight
// days back (the week's look-up and the whole history's), first sightings, repeated prices, prior
// deliveries, a scrape run's events and a visit day's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DROP_MATCH_PERCENT } from '#shared/subscriptions.ts';
import { EGG_TYPES, REGIONS, type EggType, type Region } from '#shared/vocabulary.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { scrapeRun, type RunListing } from '../../../test/scrape-runs.ts';
import { eventKey, immediateMatches, MATCH_LIMIT, type ImmediateSource } from './alerts.ts';

let db: TestDatabase;

const STORES = ['walmart', 'kroger', 'aldi', 'target'] as const;
const LOCATIONS: Array<{ store: (typeof STORES)[number]; zip: string; region: Region }> = [
  { store: 'walmart', zip: '60611', region: 'midwest' },
  { store: 'walmart', zip: '30301', region: 'south' },
  { store: 'kroger', zip: '60612', region: 'midwest' },
  { store: 'kroger', zip: '97201', region: 'west' },
  { store: 'aldi', zip: '10001', region: 'northeast' },
  { store: 'aldi', zip: '30302', region: 'south' },
  { store: 'target', zip: '97202', region: 'west' },
];
const COUNTS = [6, 12, 18];

/** A deterministic stream of numbers in [0, 1). */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const scrape = (store: string, zip: string, region: Region, listings: RunListing[]) =>
  scrapeRun(db.sql, store, zip, region, listings);

/** Moves a run's observations `days` back (their entries keep pointing at them). */
async function backdate(runId: number, days: number) {
  await db.sql`
    update price_observations set observed_at = observed_at - make_interval(days => ${days}), observed_on = utc_day(observed_at - make_interval(days => ${days}))
    where scrape_run_id = ${runId}`;
  await db.sql`update price_entries e set observed_at = o.observed_at from price_observations o where o.id = e.observation_id and o.scrape_run_id = ${runId}`;
}

interface EventRow {
  product_id: number;
  location_id: number;
  store_id: string;
  region: Region;
  egg_type: EggType;
  count: number;
  price: number;
  per_dozen: number;
  dropped: boolean;
}

/** The source's price events, by the definition (the latest earlier day's observation, looked up plainly). */
async function referenceEvents(source: ImmediateSource): Promise<EventRow[]> {
  const written =
    'runId' in source
      ? db.sql`o.scrape_run_id = ${source.runId}`
      : db.sql`exists (select 1 from coverage_visits v where v.run_id = ${source.coverageRunId} and v.status = 'succeeded'
                 and v.location_id = any(${db.sql.array(source.locationIds)}::int[]) and v.location_id = o.location_id and o.observed_at >= v.started_at)`;
  return db.sql<EventRow[]>`
    select e.product_id, e.location_id, l.store_id, l.region, p.egg_type, p.count, e.price::float8 as price,
           (e.price / p.count * 12)::float8 as per_dozen,
           coalesce(e.reference_price is not null and e.price <= e.reference_price * ${1 - DROP_MATCH_PERCENT / 100}, false) as dropped
    from price_observations o
    join price_entries e on e.observation_id = o.id
    join store_locations l on l.id = e.location_id
    join products p on p.id = e.product_id
    where ${written} and o.source = 'scrape'
      and o.price is distinct from (
        select prev.price from price_observations prev
        where prev.product_id = o.product_id and prev.location_id = o.location_id and prev.observed_on < o.observed_on
        order by prev.observed_on desc limit 1)`;
}

/** Each subscription's matches by the rule, as event keys, best first. */
async function reference(source: ImmediateSource): Promise<Map<number, string[]>> {
  const events = await referenceEvents(source);
  const subscriptions = await db.sql<
    Array<{
      id: number;
      region: Region | null;
      egg_type: EggType | null;
      preferred_stores: string[];
      price_threshold: number | null;
    }>
  >`
    select id, region, egg_type, preferred_stores, price_threshold::float8 as price_threshold
    from subscriptions where active and confirmed_at is not null and notification_frequency = 'immediately'`;
  const sent = new Set(
    (
      await db.sql<
        { subscription_id: number; period_key: string }[]
      >`select subscription_id, period_key from alert_deliveries`
    ).map((d) => `${d.subscription_id}|${d.period_key}`),
  );
  const order = (a: EventRow, b: EventRow) =>
    a.per_dozen - b.per_dozen || a.price - b.price || a.product_id - b.product_id || a.location_id - b.location_id;
  const result = new Map<number, string[]>();
  for (const s of subscriptions) {
    const keys = events
      .filter((e) => (s.region === null || e.region === s.region) && (s.egg_type === null || e.egg_type === s.egg_type))
      .filter((e) => s.preferred_stores.length === 0 || s.preferred_stores.includes(e.store_id))
      .filter((e) => (s.price_threshold !== null ? e.per_dozen <= s.price_threshold + 1e-9 : e.dropped))
      .filter((e) => !sent.has(`${s.id}|${eventKey(e)}`))
      .sort(order)
      .slice(0, MATCH_LIMIT)
      .map(eventKey);
    if (keys.length) result.set(s.id, keys);
  }
  return result;
}

async function actual(source: ImmediateSource): Promise<Map<number, string[]>> {
  const matches = await immediateMatches(db.sql, source);
  return new Map(matches.map((m) => [m.subscription.id, m.listings.map(eventKey)]));
}

beforeAll(async () => {
  db = await createTestDatabase();
  const next = random(20261128);
  const catalogue = (i: number): RunListing[] =>
    EGG_TYPES.flatMap((eggType, t) =>
      COUNTS.map((count, c) => ({
        id: `l${i}-${t}-${c}`,
        eggType,
        count,
        price: Math.round((1.5 + next() * 5) * (count / 12) * 100) / 100,
      })),
    );
  const catalogues = LOCATIONS.map((_, i) => catalogue(i));
  // Eight days back: the week before holds nothing, so the whole history's look-up finds these.
  for (const [i, loc] of LOCATIONS.entries())
    await backdate(await scrape(loc.store, loc.zip, loc.region, catalogues[i]!), 8);
  // A day back, at half the locations, some prices moved: the week's look-up finds these.
  for (const [i, loc] of LOCATIONS.entries()) {
    if (i % 2) continue;
    catalogues[i] = catalogues[i]!.map((l) =>
      next() < 0.4 ? { ...l, price: Math.round(l.price * (0.85 + next() * 0.3) * 100) / 100 } : l,
    );
    await backdate(await scrape(loc.store, loc.zip, loc.region, catalogues[i]!), 1);
  }
  // Many subscriptions over scopes, thresholds and the drop rule.
  const values: string[] = [];
  for (let n = 0; n < 600; n++) {
    const region = next() < 0.3 ? null : REGIONS[Math.floor(next() * REGIONS.length)]!;
    const eggType = next() < 0.3 ? null : EGG_TYPES[Math.floor(next() * EGG_TYPES.length)]!;
    const roll = next();
    const stores =
      roll < 0.5
        ? []
        : roll < 0.8
          ? [STORES[Math.floor(next() * STORES.length)]!]
          : [STORES[0], STORES[1 + Math.floor(next() * 3)]!];
    const threshold = next() < 0.35 ? null : Math.round((1.5 + next() * 5) * 100) / 100;
    const frequency = n % 10 === 9 ? 'daily' : 'immediately';
    values.push(
      `('m${n}@example.test', ${region ? `'${region}'` : 'null'}, ${eggType ? `'${eggType}'` : 'null'}, array[${stores.map((s) => `'${s}'`).join(',')}]::text[], ${threshold ?? 'null'}, '${frequency}', now())`,
    );
  }
  await db.sql.unsafe(
    `insert into subscriptions (email, region, egg_type, preferred_stores, price_threshold, notification_frequency, confirmed_at) values ${values.join(',')}`,
  );
});
afterAll(() => db.drop());

describe('immediateMatches', () => {
  it('gives every subscription what the rule gives it, for scrape runs and for a visit day, with prior deliveries left out', async () => {
    const next = random(7);
    const [visitRun] = await db.sql<{ id: number }[]>`
      insert into coverage_runs (store_id, kind, scope, status, day, started_at, heartbeat_at, stores_planned)
      values ('walmart', 'visit', '{"kind":"nationwide"}', 'running', current_date, now(), now(), ${LOCATIONS.length}) returning id`;
    const visitStarted = new Date(Date.now() - 1000);
    // Today: every location again, some prices moved (up or down, some 10% or more), some back
    // at the price they had, and new listings (first sightings).
    const runs: number[] = [];
    const locationIds: number[] = [];
    for (const [i, loc] of LOCATIONS.entries()) {
      const current = await db.sql<{ id: string; egg_type: EggType; count: number; price: number }[]>`
        select p.retailer_product_id as id, p.egg_type, p.count, e.price::float8 as price
        from price_entries e join products p on p.id = e.product_id join store_locations l on l.id = e.location_id
        where l.store_id = ${loc.store} and l.zip = ${loc.zip} order by p.id`;
      const today = current.map((l) => ({
        id: l.id,
        eggType: l.egg_type,
        count: l.count,
        price: next() < 0.5 ? Math.round(l.price * (0.8 + next() * 0.35) * 100) / 100 : l.price,
      }));
      today.push({
        id: `new-${i}`,
        eggType: EGG_TYPES[i % 4]!,
        count: 12,
        price: Math.round((2 + next() * 3) * 100) / 100,
      });
      runs.push(await scrape(loc.store, loc.zip, loc.region, today));
      const [location] = await db.sql<
        { id: number }[]
      >`select id from store_locations where store_id = ${loc.store} and zip = ${loc.zip}`;
      locationIds.push(location!.id);
    }
    await db.sql`
      insert into coverage_visits (run_id, location_id, chunk, status, started_at, observations_written)
      select ${visitRun!.id}, id, 0, 'succeeded', ${visitStarted}, 1 from unnest(${db.sql.array(locationIds)}::int[]) as id`;

    // Some subscriptions were already alerted some of these prices.
    const events = await referenceEvents({ runId: runs[0]! });
    expect(events.length).toBeGreaterThan(5);
    const subscriptions = await db.sql<
      { id: number }[]
    >`select id from subscriptions where notification_frequency = 'immediately' order by id`;
    for (const [n, s] of subscriptions.entries()) {
      if (n % 3) continue;
      const event = events[n % events.length]!;
      await db.sql`insert into alert_deliveries (subscription_id, period_key, kind, product_id, location_id, price) values (${s.id}, ${eventKey(event)}, 'immediate', ${event.product_id}, ${event.location_id}, ${event.price})`;
    }

    let compared = 0;
    for (const source of [
      ...runs.map((runId) => ({ runId })),
      { coverageRunId: visitRun!.id, locationIds },
      { coverageRunId: visitRun!.id, locationIds: locationIds.slice(0, 3) },
    ]) {
      const expected = await reference(source);
      expect(await actual(source)).toEqual(expected);
      compared += expected.size;
    }
    // The comparison is not empty: most subscriptions matched something somewhere.
    expect(compared).toBeGreaterThan(600);
    // Both rules, both look-ups and the exclusions took part.
    const all = await referenceEvents({ coverageRunId: visitRun!.id, locationIds });
    expect(all.some((e) => e.dropped)).toBe(true);
  });

  it('a visit starts after earlier prices: only what its stores wrote since it started are events', async () => {
    const [run] = await db.sql<{ id: number }[]>`
      insert into coverage_runs (store_id, kind, scope, status, day, started_at, heartbeat_at, stores_planned)
      values ('kroger', 'visit', '{"kind":"nationwide"}', 'running', current_date, now(), now(), 1) returning id`;
    const [location] = await db.sql<
      { id: number }[]
    >`select id from store_locations where store_id = 'kroger' and zip = '60612'`;
    await db.sql`
      insert into coverage_visits (run_id, location_id, chunk, status, started_at, observations_written)
      values (${run!.id}, ${location!.id}, 0, 'succeeded', now() + interval '1 minute', 1)`;
    expect(await immediateMatches(db.sql, { coverageRunId: run!.id, locationIds: [location!.id] })).toEqual([]);
  });
});
