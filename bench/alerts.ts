// Price-alert benchmark, part of `npm run bench`: 100,000 subscriptions on a copy of the
// 2.4-million-observation benchmark database.
// - the daily digest run (match, render and write the outbox rows with their jobs), target 30 s;
// - the immediate matching after a scrape run of 24,000 listings (every current listing), target 5 s;
// each beside a plain scan of the same rows in the same run (the subscriptions and listings the
// matcher reads), printed as a ratio.
import { openSql, type Sql } from '../src/server/db.ts';
import { immediateMatches } from '../src/server/queries/alerts.ts';
import { deliverDaily, deliverImmediate } from '../worker/alerts.ts';
import { BENCH_DATABASE, copyBenchDatabase, dropBenchCopy } from './database.ts';

export const ALERT_SUBSCRIPTIONS = 100_000;
export const DIGEST_TARGET_S = 30;
export const IMMEDIATE_TARGET_S = 5;
const ALERTS_DATABASE = 'eggwatch_bench_alerts';

export interface AlertBenchResult {
  subscriptions: number;
  day: string;
  digest: { seconds: number; emails: number; scanSeconds: number };
  immediate: {
    matchSeconds: number;
    matches: number;
    deliverSeconds: number;
    emails: number;
    scanSeconds: number;
    listings: number;
  };
  met: { digest: boolean; immediate: boolean };
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, seconds: (performance.now() - started) / 1000 };
}

/**
 * 100,000 confirmed subscriptions spread like real ones: a third per frequency; any region or one
 * of four; any egg type or one; mostly every store, else one or two; 60% with a threshold between
 * $2 and $8 a dozen, the rest on price drops.
 */
export async function insertSubscriptions(sql: Sql, n: number): Promise<void> {
  await sql`
    insert into subscriptions (email, region, egg_type, preferred_stores, price_threshold, notification_frequency, confirmed_at)
    select 'bench' || g || '@example.test',
           (array[null, 'northeast', 'midwest', 'south', 'west'])[1 + (g * 7) % 5],
           (array[null, 'standard', 'cage_free', 'organic', 'pasture_raised'])[1 + (g * 11) % 5],
           case when g % 10 < 7 then '{}'::text[]
                when g % 10 < 9 then array[(array['walmart', 'target', 'kroger', 'albertsons', 'whole-foods', 'aldi'])[1 + g % 6]]
                else array['walmart', (array['target', 'kroger', 'aldi'])[1 + g % 3]] end,
           case when g % 5 < 3 then round((2 + (g % 600) / 100.0)::numeric, 2) end,
           (array['immediately', 'daily', 'weekly'])[1 + g % 3],
           now()
    from generate_series(1, ${n}) g`;
}

/**
 * The daily digest run of `day` (match, render and write the outbox rows with their jobs) over the
 * subscriptions in the database, and before it a plain scan of what it reads: the confirmed daily
 * subscriptions and every current listing with its store, region and product.
 */
export async function timeDigest(sql: Sql, day: string): Promise<AlertBenchResult['digest']> {
  const scan = await timed(
    () => sql`
    select s.id, s.email, s.region, s.egg_type, s.preferred_stores, s.price_threshold, s.email
    from subscriptions s where s.notification_frequency = 'daily' and s.active and s.confirmed_at is not null
    union all
    select e.product_id, l.store_id, l.region, p.egg_type, null, e.price, p.title
    from price_entries e join store_locations l on l.id = e.location_id join products p on p.id = e.product_id`,
  );
  const digest = await timed(() => deliverDaily(sql, 'https://eggwatch.example', day));
  return { seconds: digest.seconds, emails: digest.value.emails, scanSeconds: scan.seconds };
}

export async function measureAlerts(adminUrl: string, log: (line: string) => void): Promise<AlertBenchResult> {
  log(`Price alerts: ${ALERT_SUBSCRIPTIONS.toLocaleString('en-US')} subscriptions on a copy of ${BENCH_DATABASE}`);
  const url = await copyBenchDatabase(adminUrl, ALERTS_DATABASE);
  const sql = await openSql(url, { max: 4 });
  try {
    await insertSubscriptions(sql, ALERT_SUBSCRIPTIONS);
    await sql`analyze subscriptions`;
    const day = (await sql<{ day: string }[]>`select max(observed_on)::text as day from price_observations`)[0]!.day;

    const digest = await timeDigest(sql, day);

    // Immediate: every current listing becomes part of one scrape run, as if just scraped.
    const [run] = await sql<{ id: number }[]>`
      insert into scrape_runs (store_id, zip_codes, total, status, started_at, finished_at) values ('walmart', '{}', 0, 'succeeded', now(), now()) returning id`;
    await sql`alter table price_observations disable trigger price_observations_updated`;
    await sql`update price_observations set scrape_run_id = ${run!.id} where id in (select observation_id from price_entries)`;
    await sql`alter table price_observations enable trigger price_observations_updated`;
    const listings = (
      await sql<
        { listings: number }[]
      >`select count(*)::int as listings from price_observations where scrape_run_id = ${run!.id}`
    )[0]!.listings;
    const scanImmediate = await timed(
      () => sql`
      select s.id, s.email, s.region, s.egg_type, s.preferred_stores, s.price_threshold
      from subscriptions s where s.notification_frequency = 'immediately' and s.active and s.confirmed_at is not null
      union all
      select o.product_id, l.store_id, l.region, p.egg_type, null, o.price
      from price_observations o
      join store_locations l on l.id = o.location_id join products p on p.id = o.product_id
      where o.scrape_run_id = ${run!.id}`,
    );
    const match = await timed(() => immediateMatches(sql, run!.id));
    const deliver = await timed(() => deliverImmediate(sql, 'https://eggwatch.example', run!.id));

    return {
      subscriptions: ALERT_SUBSCRIPTIONS,
      day,
      digest,
      immediate: {
        matchSeconds: match.seconds,
        matches: match.value.reduce((n, m) => n + m.listings.length, 0),
        deliverSeconds: deliver.seconds,
        emails: deliver.value.emails,
        scanSeconds: scanImmediate.seconds,
        listings,
      },
      met: { digest: digest.seconds <= DIGEST_TARGET_S, immediate: match.seconds <= IMMEDIATE_TARGET_S },
    };
  } finally {
    await sql.end();
    await dropBenchCopy(adminUrl, ALERTS_DATABASE).catch(() => {});
  }
}
