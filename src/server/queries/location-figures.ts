// What a store's locations charge (src/shared/location-figures.ts): one set-based statement for
// any number of store, region, egg type and pack size combinations (a dashboard page's cards), or
// for every combination of one store under its page's filters. It reads the visible current
// entries (the rule of visibleEntries) of the wanted locations through the store_locations and
// price_entries (location_id) indexes, takes each location's cheapest in-stock price of a
// combination read today, and aggregates per combination with percentile_cont, as the prices by
// state do.
import { TODAY_HOURS } from '#shared/price-map.ts';
import { combinationKey, type Combination, type LocationFigures } from '#shared/location-figures.ts';
import { EGG_TYPES, REGIONS, type EggType, type Region } from '#shared/vocabulary.ts';
import type { Db } from '../db.ts';
import { shownSource, type EntryFilters } from './prices.ts';

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

interface FiguresRow {
  store_id: string;
  region: Region;
  egg_type: EggType;
  count: number;
  locations: number;
  median: number;
  lowest: number;
  highest: number;
  sample: boolean;
  entry_id: number;
  product_id: number;
  location_id: number;
  price: number;
  name: string | null;
  city: string | null;
  state: string | null;
  zip: string;
}

/** Either the given combinations, or every combination of one store under the filters. */
type Scope = { combinations: readonly Combination[] } | { store: string; filters: Omit<EntryFilters, 'store'> };

async function figuresRows(sql: Db, scope: Scope): Promise<FiguresRow[]> {
  // The store's locations in the region and its products of the type and size, then the entry of
  // each pair by its location: only the wanted region's entries are read. (Read from the products'
  // side, as visibleEntries' joins let the plan do, every region's entries of a product were, four
  // times the rows, three times the time on 15,000 locations.)
  const pairs =
    'combinations' in scope
      ? sql`
          from unnest(${sql.array(scope.combinations.map((c) => c.store_id))}::text[],
                      ${sql.array(scope.combinations.map((c) => c.region))}::text[],
                      ${sql.array(scope.combinations.map((c) => c.egg_type))}::text[],
                      ${sql.array(scope.combinations.map((c) => c.count))}::int[]) as w(store_id, region, egg_type, count)
          join store_locations l on l.store_id = w.store_id and l.region = w.region
          join products p on p.store_id = w.store_id and p.egg_type = w.egg_type and p.count = w.count`
      : sql`
          from store_locations l
          join products p on p.store_id = l.store_id
          where l.store_id = ${scope.store}
            ${scope.filters.region ? sql`and l.region = ${scope.filters.region}` : sql``}
            ${scope.filters.eggType ? sql`and p.egg_type = ${scope.filters.eggType}` : sql``}
            ${scope.filters.count ? sql`and p.count = ${scope.filters.count}` : sql``}`;
  return sql<FiguresRow[]>`
    with pairs as (
      select l.id as location_id, l.store_id, l.region, l.status, p.id as product_id, p.egg_type, p.count
      ${pairs}
    ), offers as (
      -- A location's price of a combination: its cheapest in stock (several brands may share a
      -- pack size). An entry whose stock the retailer does not say (null) counts. Visible entries
      -- only, by the rule every list follows (visibleEntries).
      select distinct on (l.store_id, l.region, l.egg_type, l.count, l.location_id)
             l.store_id, l.region, l.egg_type, l.count, l.location_id, e.id as entry_id, e.product_id, e.price,
             e.price / l.count * 12 as per_dozen, e.source
      from pairs l
      join stores s on s.id = l.store_id
      join price_entries e on e.location_id = l.location_id and e.product_id = l.product_id
      where s.active and ${shownSource(sql)}
        and l.status = 'open' and e.in_stock is not false
        and e.observed_at >= now() - make_interval(hours => ${TODAY_HOURS})
      order by l.store_id, l.region, l.egg_type, l.count, l.location_id, e.price, e.id
    ), figures as (
      select store_id, region, egg_type, count, count(*)::int as locations,
             percentile_cont(0.5) within group (order by per_dozen)::float8 as median,
             min(per_dozen)::float8 as lowest, max(per_dozen)::float8 as highest,
             bool_or(source <> 'scrape') as sample
      from offers
      group by store_id, region, egg_type, count
    ), cheapest as (
      select distinct on (store_id, region, egg_type, count) store_id, region, egg_type, count, location_id, entry_id, product_id, price
      from offers
      order by store_id, region, egg_type, count, per_dozen, price, location_id
    )
    select f.store_id, f.region, f.egg_type, f.count, f.locations, f.median, f.lowest, f.highest, f.sample,
           c.entry_id, c.product_id, c.location_id, c.price::float8 as price, l.name, l.city, l.state, l.zip
    from figures f
    join cheapest c on c.store_id = f.store_id and c.region = f.region and c.egg_type = f.egg_type and c.count = f.count
    join store_locations l on l.id = c.location_id
    order by f.store_id, f.region, f.egg_type, f.count`;
}

function toFigures(row: FiguresRow): LocationFigures {
  return {
    store_id: row.store_id,
    region: row.region,
    egg_type: row.egg_type,
    count: row.count,
    locations: row.locations,
    median_per_dozen: round(row.median, 2),
    lowest_per_dozen: round(row.lowest, 2),
    highest_per_dozen: round(row.highest, 2),
    sample: row.sample,
    cheapest: {
      entry_id: row.entry_id,
      product_id: row.product_id,
      location_id: row.location_id,
      price: row.price,
      price_per_dozen: round(row.lowest, 2),
      name: row.name,
      city: row.city,
      state: row.state,
      zip: row.zip,
    },
  };
}

/**
 * The figures of the given combinations, keyed by combinationKey; a combination without any today
 * is absent. Computed from the entries, or with precomputed, read as storeLocationFigures reads
 * them (the figures of the latest rollup refresh while still current): the dashboard's cards, whose
 * listing is chosen from that refresh's figures too.
 */
export async function locationFigures(
  sql: Db,
  combinations: readonly Combination[],
  { precomputed = false } = {},
): Promise<Map<string, LocationFigures>> {
  const unique = [...new Map(combinations.map((c) => [combinationKey(c), c])).values()];
  if (unique.length === 0) return new Map();
  const scope = { combinations: unique };
  const rows = precomputed ? await currentRows(sql, scope) : await figuresRows(sql, scope);
  return new Map(rows.map((row) => [combinationKey(row), toFigures(row)]));
}

/**
 * The precomputed figures (price_location_figures, src/server/queries/store-figures.ts) in scope,
 * while they are still current: until the first price behind one leaves the 48-hour window
 * (valid_until). Any other row is computed here from its entries; a combination without a row had
 * no price read within the window at the refresh, and time alone does not give it one.
 */
async function currentRows(sql: Db, scope: Scope): Promise<FiguresRow[]> {
  // The combinations joined to their rows by the key (as a filter on the rows, PostgreSQL expected
  // thousands of them and hashed every store location to name a page's six;
  // docs/decisions/010-location-figures.md).
  const [figures, wanted] =
    'combinations' in scope
      ? [
          sql`unnest(${sql.array(scope.combinations.map((c) => c.store_id))}::text[],
                     ${sql.array(scope.combinations.map((c) => c.region))}::text[],
                     ${sql.array(scope.combinations.map((c) => c.egg_type))}::text[],
                     ${sql.array(scope.combinations.map((c) => c.count))}::int[]) as w(store_id, region, egg_type, count)
              join price_location_figures f on f.store_id = w.store_id and f.region = w.region and f.egg_type = w.egg_type and f.count = w.count`,
          sql``,
        ]
      : [
          sql`price_location_figures f`,
          sql`and f.store_id = ${scope.store}
              ${scope.filters.region ? sql`and f.region = ${scope.filters.region}` : sql``}
              ${scope.filters.eggType ? sql`and f.egg_type = ${scope.filters.eggType}` : sql``}
              ${scope.filters.count ? sql`and f.count = ${scope.filters.count}` : sql``}`,
        ];
  const rows = await sql<Array<FiguresRow & { current: boolean }>>`
    select f.store_id, f.region, f.egg_type, f.count, f.locations, f.median, f.lowest, f.highest, f.sample,
           f.entry_id, f.product_id, f.location_id, f.price::float8 as price, l.name, l.city, l.state, l.zip,
           f.valid_until >= now() as current
    from ${figures}
    join stores s on s.id = f.store_id
    join store_locations l on l.id = f.location_id
    where s.active ${wanted}`;
  const expired = rows.filter((row) => !row.current);
  const recomputed = expired.length > 0 ? await figuresRows(sql, { combinations: expired }) : [];
  return [...rows.filter((row) => row.current), ...recomputed];
}

/**
 * Every combination of one store with prices today under the filters, by region, egg type and
 * pack size, from the figures precomputed at the latest rollup refresh (currentRows).
 */
export async function storeLocationFigures(
  sql: Db,
  store: string,
  filters: Omit<EntryFilters, 'store'> = {},
): Promise<LocationFigures[]> {
  const order = (f: LocationFigures) => [REGIONS.indexOf(f.region), EGG_TYPES.indexOf(f.egg_type), f.count];
  return (await currentRows(sql, { store, filters })).map(toFigures).sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  });
}

/**
 * storeLocationFigures computed from the entries, every combination at once, whatever the
 * precomputed rows say: what those rows are checked against.
 */
export async function freshStoreLocationFigures(
  sql: Db,
  store: string,
  filters: Omit<EntryFilters, 'store'> = {},
): Promise<LocationFigures[]> {
  const order = (f: LocationFigures) => [REGIONS.indexOf(f.region), EGG_TYPES.indexOf(f.egg_type), f.count];
  return (await figuresRows(sql, { store, filters })).map(toFigures).sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  });
}
