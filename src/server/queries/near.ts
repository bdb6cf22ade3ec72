// Near you: the visible price entries around a point, ranked by price per dozen. One statement:
// a bounding box on the locations' coordinates (indexed) keeps the candidates within the largest
// radius, the exact great-circle distance of each is computed in SQL, the smallest radius at or
// above the one asked for that has entries is chosen, and only when none within the largest
// radius has any does the region branch run (a gated subquery: PostgreSQL skips it otherwise).
// The total is counted before the limit and offset; each entry of the page carries its price on
// the previous UTC day.
import { NEAR_RADII, type NearEntry, type NearestStore, type NearScope } from '#shared/near.ts';
import type { EggType, Region } from '#shared/vocabulary.ts';
import { boundingBox, EARTH_RADIUS_MILES, type Coordinates } from '../geo.ts';
import type { Db } from '../db.ts';
import { trendColumns, visibleEntries } from './prices.ts';

export interface NearQuery {
  origin: Coordinates;
  /** The ZIP code searched (the origin is its centre). */
  zip: string;
  region: Region;
  /** One of NEAR_RADII, in miles. */
  radius: number;
  eggType?: EggType | undefined;
  count?: number | undefined;
  limit: number;
  offset?: number | undefined;
}

export interface NearRows {
  scope: NearScope;
  radiusUsed: number | null;
  total: number;
  entries: NearEntry[];
  /** The nearest store with prices under the filters, when it is too far to call near ('far'). */
  nearest: NearestStore | null;
}

/**
 * Beyond this many miles no store is "near you": the answer says how far the nearest is instead
 * of listing a distant region's cheapest (Anchorage's census region is the West, whose stores are
 * 2,000 miles away).
 */
export const FAR_MILES = 500;

/**
 * The measured location nearest the origin that has a visible price under the filters, anywhere,
 * with its distance; null when none has. One distance per located store location (15,000), each
 * probed for one visible entry only when it is the nearest so far in order.
 */
async function nearestKnown(
  sql: Db,
  origin: Coordinates,
  filters: { eggType?: EggType | undefined; count?: number | undefined },
): Promise<NearestStore | null> {
  const [row] = await sql<NearestStore[]>`
    select s.store_name, l.city, l.state, l.zip, round(located.distance::numeric, 1)::float8 as distance_miles
    from (select l.id, ${distanceFrom(sql, origin)} as distance from store_locations l where l.latitude is not null) located
    join store_locations l on l.id = located.id
    join stores s on s.id = l.store_id
    cross join lateral (select 1 ${visibleEntries(sql, filters)} and l.id = located.id limit 1) priced
    order by located.distance, l.id
    limit 1`;
  return row ?? null;
}

const MAX_RADIUS = Math.max(...NEAR_RADII);

type Row = NearEntry & { total: number; radius_used: number | null };

/** The great-circle miles from the origin to a store location l (haversine, as geo.ts computes it). */
function distanceFrom(sql: Db, origin: Coordinates) {
  return sql`
    2 * ${EARTH_RADIUS_MILES}::float8 * asin(least(1, sqrt(
      power(sin(radians(l.latitude - ${origin.latitude}::float8) / 2), 2)
      + cos(radians(${origin.latitude}::float8)) * cos(radians(l.latitude))
        * power(sin(radians(l.longitude - ${origin.longitude}::float8) / 2), 2))))`;
}

export async function nearEntries(sql: Db, query: NearQuery): Promise<NearRows> {
  const { origin } = query;
  const box = boundingBox(origin, MAX_RADIUS);
  const filters = { eggType: query.eggType, count: query.count };
  const radii = NEAR_RADII.filter((r) => r >= query.radius);
  const distance = distanceFrom(sql, origin);
  // What ranks an entry: the only columns computed for every candidate; the page's entries get
  // the rest at the end. The region's fallback ranks tens of thousands, and every column computed
  // for each of them was most of its time (docs/decisions/005-near-you-and-open-data.md).
  // A location the retailer gave no coordinates for sits at its ZIP code's centre: in the ZIP code
  // searched, its distance would read 0.0 mi whatever it is, so it is not measured ("in 10001") and
  // ranks after the measured ones at an equal price. From another ZIP code, the distance between
  // the two centres stands.
  const ranking = sql`e.id, s.store_name, round(e.price / p.count * 12, 2) as price_per_dozen, ${distance} as distance,
    (l.coordinates_source = 'zip' and l.zip = ${query.zip}) as unmeasured`;

  // The locations in the bounding box, each with its distance computed once: the radius is chosen
  // from them (for each radius, the locations within it are probed until one has a visible entry,
  // one location's entries at a time: a LATERAL with a LIMIT, which PostgreSQL cannot turn into a
  // hash join over every entry as it did an EXISTS), and then only the entries of the locations
  // within the radius are read. Joining the entries of the whole box first and filtering them by
  // distance made PostgreSQL hash every price entry to keep the box's few thousand
  // (docs/decisions/005-near-you-and-open-data.md).
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
    ), scoped as (
      select ${ranking}
      ${visibleEntries(sql, filters)}
        and l.id in (select located.id from located where located.distance <= (select radius from chosen))
      union all
      select ${ranking}
      ${visibleEntries(sql, { ...filters, region: query.region })}
        and l.latitude is not null
        and not exists (select 1 from chosen where radius is not null)
    ), ranked as (
      select scoped.*, count(*) over ()::int as total
      from scoped
      order by price_per_dozen, unmeasured, distance, store_name, id
      limit ${query.limit} offset ${query.offset ?? 0}
    )
    select e.id, l.store_id, s.store_name, l.region, l.zip, p.egg_type, p.count, e.price, e.regular_price, e.in_stock,
           round(e.price / p.count, 4) as unit_price, p.size_grade, ${trendColumns(sql)},
           to_char(e.observed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as last_updated,
           p.url as source_url, p.title, p.brand, e.source, e.product_id, e.location_id,
           l.name as location_name, l.city, l.state,
           case when ranked.unmeasured then null else round(ranked.distance::numeric, 1) end as distance_miles,
           ranked.price_per_dozen,
           previous.price as previous_price, e.price - previous.price as change,
           ranked.total, (select radius from chosen) as radius_used
    from ranked
    join price_entries e on e.id = ranked.id
    join store_locations l on l.id = e.location_id
    join stores s on s.id = l.store_id
    join products p on p.id = e.product_id
    left join price_observations previous
      on previous.product_id = e.product_id and previous.location_id = e.location_id
     and previous.observed_on = (e.observed_at at time zone 'UTC')::date - 1
    order by ranked.price_per_dozen, ranked.unmeasured, ranked.distance, ranked.store_name, ranked.id`;

  const first = rows[0];
  // A page past the end has no row to carry the total and scope: the first entry tells them.
  if (!first && query.offset) return { ...(await nearEntries(sql, { ...query, limit: 1, offset: 0 })), entries: [] };
  if (!first) return { scope: 'none', radiusUsed: null, total: 0, entries: [], nearest: null };
  const radiusUsed = first.radius_used;
  const scope: NearScope = radiusUsed === null ? 'region' : radiusUsed === query.radius ? 'radius' : 'widened';
  if (scope === 'region') {
    // A region's cheapest far away is not "near you": past FAR_MILES, say how far the nearest is.
    const nearest = await nearestKnown(sql, origin, filters);
    if (nearest && nearest.distance_miles > FAR_MILES)
      return { scope: 'far', radiusUsed: null, total: 0, entries: [], nearest };
  }
  return {
    scope,
    radiusUsed,
    total: first.total,
    entries: rows.map(({ total: _total, radius_used: _radius, ...entry }) => entry),
    nearest: null,
  };
}
