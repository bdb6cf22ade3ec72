// A product's price history at one store location: its daily observations over the last `days`
// UTC days ending today, the observation before the latest (for the latest change), and the BLS
// national average of a dozen grade A large eggs for the months the span covers, and how many days
// of prices the product has there in all, read in one statement (one snapshot). Only a visible entry has a history here: a product of an inactive
// store, or a sample price that scraped prices have replaced, is not found, as in every list.
import type { HistoryResult } from '#shared/near.ts';
import type { EggType, PriceSource, Region } from '#shared/vocabulary.ts';
import type { Db } from '../db.ts';
import { BENCHMARK_SERIES } from '../seed.ts';
import { visibleEntries } from './prices.ts';

export interface HistoryQuery {
  productId: number;
  locationId: number;
  days: number;
}

interface Row {
  product_id: number;
  store_id: string;
  store_name: string;
  title: string;
  brand: string | null;
  egg_type: EggType;
  count: number;
  size_grade: string | null;
  url: string | null;
  location_id: number;
  location_name: string | null;
  zip: string;
  city: string | null;
  state: string | null;
  region: Region;
  /** [day, price, source] oldest first; null when the span has none. */
  points: Array<[string, number, PriceSource]> | null;
  /** [day, price] of the observation before the span's latest. */
  before: [string, number] | null;
  /** [YYYY-MM, price] oldest first. */
  bls: Array<[string, number]> | null;
  history_days: number;
}

const cents = (value: number) => Math.round(value * 100) / 100;

/** The history, or null when the product has no visible price at that location. */
export async function productHistory(sql: Db, query: HistoryQuery): Promise<HistoryResult | null> {
  const [row] = await sql<Row[]>`
    with entry as (
      select p.id as product_id, p.store_id, s.store_name, p.title, p.brand, p.egg_type, p.count, p.size_grade, p.url,
             l.id as location_id, l.name as location_name, l.zip, l.city, l.state, l.region
      ${visibleEntries(sql)}
        and e.product_id = ${query.productId} and e.location_id = ${query.locationId}
    ), span as (
      select today, today - (${query.days}::int - 1) as first_day
      from (select (now() at time zone 'UTC')::date as today) t
    ), points as (
      select o.observed_on, o.price, o.source
      from price_observations o, span
      where o.product_id = ${query.productId} and o.location_id = ${query.locationId}
        and o.observed_on between span.first_day and span.today
    ), latest as (
      select observed_on from points order by observed_on desc limit 1
    ), before as (
      select o.observed_on, o.price
      from price_observations o, latest
      where o.product_id = ${query.productId} and o.location_id = ${query.locationId}
        and o.observed_on < latest.observed_on
      order by o.observed_on desc
      limit 1
    ), bls_span as (
      select m.period, m.price
      from benchmark_prices m, span
      where m.series_id = ${BENCHMARK_SERIES.national}
        and m.period between date_trunc('month', span.first_day)::date and date_trunc('month', span.today)::date
    ), bls as (
      select period, price from bls_span
      union all
      (select period, price from benchmark_prices
       where series_id = ${BENCHMARK_SERIES.national} and not exists (select 1 from bls_span)
       order by period desc
       limit 1)
    )
    select entry.*,
           (select json_agg(json_build_array(to_char(observed_on, 'YYYY-MM-DD'), price, source) order by observed_on) from points) as points,
           (select json_build_array(to_char(observed_on, 'YYYY-MM-DD'), price) from before) as before,
           (select json_agg(json_build_array(to_char(period, 'YYYY-MM'), price) order by period) from bls) as bls,
           (select count(*)::int from price_observations o
            where o.product_id = ${query.productId} and o.location_id = ${query.locationId}) as history_days
    from entry`;
  if (!row) return null;

  const points = (row.points ?? []).map(([day, price]) => ({
    day,
    price,
    price_per_dozen: cents((price / row.count) * 12),
  }));
  const latestPoint = points.at(-1) ?? null;
  // Ties go to the most recent day: "lowest since" reads best with the latest occurrence.
  const pick = (better: (a: number, b: number) => boolean) =>
    points.reduce<(typeof points)[number] | null>(
      (best, point) => (best === null || !better(best.price, point.price) ? point : best),
      null,
    );
  const lowest = pick((a, b) => a < b);
  const highest = pick((a, b) => a > b);
  const before = row.before;

  return {
    product: {
      id: row.product_id,
      store_id: row.store_id,
      store_name: row.store_name,
      title: row.title,
      brand: row.brand,
      egg_type: row.egg_type,
      count: row.count,
      size_grade: row.size_grade,
      url: row.url,
    },
    location: {
      id: row.location_id,
      name: row.location_name,
      zip: row.zip,
      city: row.city,
      state: row.state,
      region: row.region,
    },
    days: query.days,
    history_days: row.history_days,
    source: row.points?.at(-1)?.[2] ?? null,
    points,
    lowest: lowest && { day: lowest.day, price: lowest.price },
    highest: highest && { day: highest.day, price: highest.price },
    latest: latestPoint && { day: latestPoint.day, price: latestPoint.price },
    change:
      latestPoint && before
        ? {
            value: cents(latestPoint.price - before[1]),
            percent: Math.round(((latestPoint.price - before[1]) / before[1]) * 10_000) / 100,
            since: before[0],
          }
        : null,
    bls: (row.bls ?? []).map(([period, price]) => ({ period, price })),
  };
}
