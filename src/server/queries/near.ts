// Near you: the visible price entries around a point, ranked by price per dozen. One statement:
// a bounding box on the locations' coordinates (indexed) keeps the candidates within the largest
// radius, the exact great-circle distance is computed in SQL, the smallest radius at or above the
// one asked for that has entries is chosen, and only when none within the largest radius has any
// does the region branch run (a gated subquery: PostgreSQL skips it otherwise). The total is
// counted before the limit; each entry carries its price on the previous UTC day.
import { NEAR_RADII, type NearEntry, type NearScope } from '#shared/near.ts';
import type { EggType, Region } from '#shared/vocabulary.ts';
import { boundingBox, EARTH_RADIUS_MILES, type Coordinates } from '../geo.ts';
import type { Db } from '../db.ts';
import { visibleEntries } from './prices.ts';

export interface NearQuery {
  origin: Coordinates;
  region: Region;
  /** One of NEAR_RADII, in miles. */
  radius: number;
  eggType?: EggType | undefined;
  count?: number | undefined;
  limit: number;
}

export interface NearRows {
  scope: NearScope;
  radiusUsed: number | null;
  total: number;
  entries: NearEntry[];
}

const MAX_RADIUS = Math.max(...NEAR_RADII);

type Row = NearEntry & { total: number; radius_used: number | null };

export async function nearEntries(sql: Db, query: NearQuery): Promise<NearRows> {
  const { origin } = query;
  const box = boundingBox(origin, MAX_RADIUS);
  const filters = { eggType: query.eggType, count: query.count };
  const radii = NEAR_RADII.filter((r) => r >= query.radius);
  // Haversine, as greatCircleMiles computes it (geo.ts).
  const distance = sql`
    2 * ${EARTH_RADIUS_MILES}::float8 * asin(least(1, sqrt(
      power(sin(radians(l.latitude - ${origin.latitude}::float8) / 2), 2)
      + cos(radians(${origin.latitude}::float8)) * cos(radians(l.latitude))
        * power(sin(radians(l.longitude - ${origin.longitude}::float8) / 2), 2))))`;
  const columns = sql`
    e.id, l.store_id, s.store_name, l.region, l.zip, p.egg_type, p.count, e.price, e.regular_price, e.in_stock,
    round(e.price / p.count, 4) as unit_price, p.size_grade, e.trend_value, e.trend_direction,
    to_char(e.observed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as last_updated,
    p.url as source_url, p.title, p.brand, e.source, e.product_id, e.location_id,
    l.name as location_name, l.city, l.state, e.observed_at,
    round(e.price / p.count * 12, 2) as price_per_dozen`;

  const rows = await sql<Row[]>`
    with located as materialized (
      select l.id, ${distance} as distance
      from store_locations l
      where l.latitude between ${box.minLatitude}::float8 and ${box.maxLatitude}::float8
        and l.longitude between ${box.minLongitude}::float8 and ${box.maxLongitude}::float8
    ), chosen as (
      select min(r) as radius
      from unnest(${sql.array(radii)}::int[]) as r
      where exists (
        select 1
        from located
        cross join lateral (select 1 ${visibleEntries(sql, filters)} and l.id = located.id limit 1) priced
        where located.distance <= r)
    ), near as (
      select ${columns}, ${distance} as distance
      ${visibleEntries(sql, filters)}
        and l.id in (select located.id from located where located.distance <= (select radius from chosen))
    ), regional as (
      select ${columns}, ${distance} as distance
      ${visibleEntries(sql, { ...filters, region: query.region })}
        and l.latitude is not null
        and not exists (select 1 from chosen where radius is not null)
    ), scoped as (
      select near.* from near
      union all
      select regional.* from regional
    ), ranked as (
      select scoped.*, count(*) over ()::int as total
      from scoped
      order by price_per_dozen, distance, store_name, id
      limit ${query.limit}
    )
    select ranked.id, ranked.store_id, ranked.store_name, ranked.region, ranked.zip, ranked.egg_type, ranked.count,
           ranked.price, ranked.regular_price, ranked.in_stock, ranked.unit_price, ranked.size_grade, ranked.trend_value, ranked.trend_direction,
           ranked.last_updated, ranked.source_url, ranked.title, ranked.brand, ranked.source, ranked.product_id,
           ranked.location_id, ranked.location_name, ranked.city, ranked.state,
           round(ranked.distance::numeric, 1) as distance_miles, ranked.price_per_dozen,
           previous.price as previous_price, ranked.price - previous.price as change,
           ranked.total, (select radius from chosen) as radius_used
    from ranked
    left join price_observations previous
      on previous.product_id = ranked.product_id and previous.location_id = ranked.location_id
     and previous.observed_on = (ranked.observed_at at time zone 'UTC')::date - 1
    order by ranked.price_per_dozen, ranked.distance, ranked.store_name, ranked.id`;

  const first = rows[0];
  if (!first) return { scope: 'none', radiusUsed: null, total: 0, entries: [] };
  const radiusUsed = first.radius_used;
  const scope: NearScope = radiusUsed === null ? 'region' : radiusUsed === query.radius ? 'radius' : 'widened';
  return {
    scope,
    radiusUsed,
    total: first.total,
    entries: rows.map(({ total: _total, radius_used: _radius, ...entry }) => entry),
  };
}
