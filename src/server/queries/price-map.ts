// Prices by state for the shoppers' US map (src/shared/price-map.ts). Today's entries are the
// visible current entries (sample prices hidden where a store and region has scraped ones, as
// everywhere) read within TODAY_HOURS; last week's median comes from the history's observations
// of the UTC day 7 days before, under the same visibility rule. Both are read from the figures
// the rollup refresh keeps (migration 020, price-map-figures.ts), a few thousand rows instead of every
// entry; test/price-map-reference.ts is the query over the entries they are checked against.
import { TODAY_HOURS, type PriceMapResult, type PriceMapCheapestResult, type StateFigures } from '#shared/price-map.ts';
import { STATE_REGIONS, type UsState } from '#shared/zip.ts';
import type { EggType } from '#shared/vocabulary.ts';
import type { Db } from '../db.ts';
import { listPriceEntries, scrapedStoreRegions, visibleEntries } from './prices.ts';

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/**
 * Per state (or per `keys`: the columns a group is told by), from rows (state, per_dozen, n: how
 * many entries have that price per dozen, and sample), the median per dozen as percentile_cont(0.5)
 * works it out over the entries one by one (the value at position floor((total - 1) / 2) of the
 * sorted values, and when the count is even that value plus half the way to the next, in double
 * precision as it does), the lowest, the highest, the entries and whether any is not scraped. The
 * entries of a state share a few prices per dozen (a product's price across a state's stores), so
 * this sorts a few rows, not every entry, and no text sort by state over every entry.
 */
export function medians(sql: Db, values: ReturnType<Db['unsafe']>, keys: readonly string[] = ['state']) {
  const by = sql.unsafe(keys.join(', '));
  return sql`(
    select ${by},
           case when total % 2 = 1 then low_value else low_value + 0.5 * (high_value - low_value) end as median,
           lowest, highest, total::int as entries, sample
    from (
      select ${by}, total,
             min(per_dozen) filter (where before <= (total - 1) / 2 and (total - 1) / 2 < upto) as low_value,
             min(per_dozen) filter (where before <= total / 2 and total / 2 < upto) as high_value,
             min(per_dozen) as lowest, max(per_dozen) as highest, bool_or(sample) as sample
      from (
        select ${by}, per_dozen, sample,
               sum(n) over w - n as before, sum(n) over w as upto, sum(n) over (partition by ${by}) as total
        from ${values} v
        window w as (partition by ${by} order by per_dozen rows unbounded preceding)) ranked
      group by ${by}, total) positions)`;
}

/**
 * What the summaries are computed under, as one row (stores, hidden): the active stores' ids and
 * the store and region pairs whose sample prices are hidden (store_id/region,
 * scrapedStoreRegions), each in order.
 */
export function summaryBasis(sql: Db) {
  return sql`
    select array(select id from stores where active order by id) as stores,
           array(select pairs.store_id || '/' || pairs.region from (${scrapedStoreRegions(sql)}) pairs order by 1) as hidden`;
}

export interface StateRow {
  state: string;
  median: number | null;
  lowest: number | null;
  highest: number | null;
  entries: number;
  stores: number;
  sample: boolean;
  week_median: number | null;
  day: string;
}

/** now_figures: per state the median, lowest, highest, entries, stores and sample, from the CTEs today_values and today_stores. */
function nowFigures(sql: Db) {
  return sql`
    now_figures as (
      select m.state, m.median, m.lowest, m.highest, m.entries, t.stores, m.sample
      from ${medians(sql, sql.unsafe('today_values'))} m join today_stores t using (state)
    )`;
}

/**
 * today_values and today_stores computed from the visible entries of the given states read within
 * TODAY_HOURS, by price per dozen and by location in one pass.
 */
function liveToday(
  sql: Db,
  { eggType, count }: { eggType: EggType; count?: number | undefined },
  states: readonly string[],
) {
  return sql`
    today_groups as (
      select l.state, (e.price / p.count * 12)::float8 as per_dozen, count(*)::int as n,
             bool_or(e.source <> 'scrape') as sample, grouping(e.location_id) = 1 as by_value
      ${visibleEntries(sql, { eggType, count })}
        and l.state is not null and e.observed_at >= now() - make_interval(hours => ${TODAY_HOURS})
        and l.state = any(${sql.array([...states])}::text[])
        -- The states' locations' entries through the price_entries (location_id) index, not every entry.
        and e.location_id in (select sl.id from store_locations sl where sl.state = any(${sql.array([...states])}::text[]))
      group by grouping sets ((l.state, p.count, e.price), (l.state, e.location_id))
    ), today_values as (
      select state, per_dozen, n, sample from today_groups where by_value
    ), today_stores as (
      select state, count(*)::int as stores from today_groups where not by_value group by state
    )`;
}

/**
 * Prices by state, read from the summaries the rollup refresh keeps (migration 020,
 * price-map-figures.ts): a row per state, while the stores active and the pairs whose sample prices
 * are hidden are those they were computed under. Otherwise summed from the per-store rows (today's
 * per state, store and price per dozen over the active stores, last week's per price under the
 * pairs' current visibility). Either way a state whose figures hold a price that has left the
 * 48-hour window since is computed from its entries here, as before the figures.
 */
export async function readPriceMap(
  sql: Db,
  { eggType, count }: { eggType: EggType; count?: number | undefined },
): Promise<PriceMapResult> {
  const rows = (await summaryRows(sql, { eggType, count })) ?? (await storeRows(sql, { eggType, count }));
  const expired = rows.filter((row) => row.expired).map((row) => row.state);
  const live =
    expired.length > 0
      ? await sql<Array<Omit<StateRow, 'week_median' | 'day'>>>`
          with ${liveToday(sql, { eggType, count }, expired)}, ${nowFigures(sql)}
          select * from now_figures`
      : [];
  const today = new Map(live.map((row) => [row.state, row]));
  const none = { median: null, lowest: null, highest: null, entries: 0, stores: 0, sample: false };
  return priceMapResult(
    rows.map((row) => (row.expired ? { ...row, ...none, ...today.get(row.state) } : row)),
    { eggType, count },
  );
}

const weekAgo = (sql: Db) => sql`(now() at time zone 'UTC')::date - 7`;
const kept = (sql: Db) => sql`(select coalesce(max(kept_from), '-infinity'::date) from price_history_retention)`;
const utcToday = (sql: Db) => sql`to_char((now() at time zone 'UTC')::date, 'YYYY-MM-DD')`;

/** Each state's row from the summaries; null when their basis is not the current one. */
async function summaryRows(sql: Db, { eggType, count }: { eggType: EggType; count?: number | undefined }) {
  const rows = await sql<Array<StateRow & { expired: boolean; ok: boolean }>>`
    with now_basis as (${summaryBasis(sql)}), usable as (
      select exists (select 1 from price_state_summary_basis b, now_basis n where b.stores = n.stores and b.hidden = n.hidden) as ok
    ), today as (
      select state, median, lowest, highest, entries, stores, sample, valid_until < now() as expired
      from price_state_summaries
      where egg_type = ${eggType} and count = ${count ?? 0}
    ), week as (
      select state, median as week_median
      from price_state_week_medians
      where day = ${weekAgo(sql)} and day >= ${kept(sql)} and egg_type = ${eggType} and count = ${count ?? 0}
    )
    select u.ok, state, t.median, t.lowest, t.highest, coalesce(t.entries, 0) as entries, coalesce(t.stores, 0) as stores,
           coalesce(t.sample, false) as sample, w.week_median, coalesce(t.expired, false) as expired, ${utcToday(sql)} as day
    from usable u left join (today t full join week w using (state)) on true`;
  if (!rows[0]?.ok) return null;
  return rows.filter((row) => row.state !== null);
}

/** Each state's row summed from the per-store rows of the active stores. */
async function storeRows(sql: Db, { eggType, count }: { eggType: EggType; count?: number | undefined }) {
  return sql<Array<StateRow & { expired: boolean }>>`
    with stored_values as (
      select f.state, f.per_dozen, f.entries as n, f.sample, f.valid_until >= now() as current
      from price_state_figures f
      join stores s on s.id = f.store_id
      where s.active and f.egg_type = ${eggType} ${count ? sql`and f.count = ${count}` : sql``}
    ), stored_stores as (
      -- Count 0: the distinct locations over every pack size.
      select f.state, sum(f.locations)::int as stores, bool_and(f.valid_until >= now()) as current
      from price_state_location_figures f
      join stores s on s.id = f.store_id
      where s.active and f.egg_type = ${eggType} and f.count = ${count ?? 0}
      group by f.state
    ), expired as (
      select state from stored_values where not current
      union
      select state from stored_stores where not current
    ), today_values as (
      select state, per_dozen, n, sample from stored_values where state not in (select state from expired)
    ), today_stores as (
      select state, stores from stored_stores where state not in (select state from expired)
    ), ${nowFigures(sql)}, week_values as (
      select v.state, v.per_dozen, v.observations as n, false as sample
      from price_state_daily_values v
      join stores s on s.id = v.store_id
      where v.day = ${weekAgo(sql)} and v.day >= ${kept(sql)}
        and s.active and v.egg_type = ${eggType} ${count ? sql`and v.count = ${count}` : sql``}
        and (v.source <> 'sample' or (v.store_id, v.region) not in (${scrapedStoreRegions(sql)}))
    ), week_figures as (
      select state, median as week_median from ${medians(sql, sql.unsafe('week_values'))} w
    )
    select coalesce(n.state, w.state, x.state) as state, n.median, n.lowest, n.highest, coalesce(n.entries, 0) as entries,
           coalesce(n.stores, 0) as stores, coalesce(n.sample, false) as sample, w.week_median,
           x.state is not null as expired, ${utcToday(sql)} as day
    from now_figures n
    full join week_figures w on w.state = n.state
    full join expired x on x.state = coalesce(n.state, w.state)`;
}

/** The answer from each state's row (a state without one has no prices today nor last week). */
export function priceMapResult(
  rows: readonly StateRow[],
  { eggType, count }: { eggType: EggType; count?: number | undefined },
): PriceMapResult {
  const byState = new Map(rows.map((row) => [row.state, row]));
  const day = rows[0]?.day ?? new Date().toISOString().slice(0, 10);
  const states: StateFigures[] = (Object.keys(STATE_REGIONS) as UsState[]).sort().map((state) => {
    const row = byState.get(state);
    const median = row?.median ?? null;
    const week = row?.week_median ?? null;
    const change = median !== null && week !== null ? round(median - week, 2) : null;
    return {
      state,
      region: STATE_REGIONS[state],
      median_per_dozen: median === null ? null : round(median, 2),
      lowest_per_dozen: row?.lowest == null ? null : round(row.lowest, 2),
      highest_per_dozen: row?.highest == null ? null : round(row.highest, 2),
      entries: row?.entries ?? 0,
      stores: row?.stores ?? 0,
      sample: row?.sample ?? false,
      week_ago_median_per_dozen: week === null ? null : round(week, 2),
      change,
      change_percent: median !== null && week !== null && week > 0 ? round(((median - week) / week) * 100, 1) : null,
    };
  });
  return { egg_type: eggType, count: count ?? null, day, states };
}

/** A state's cheapest entries today (per dozen, then price, then id). */
export async function cheapestInState(
  sql: Db,
  {
    state,
    eggType,
    count,
    limit,
    offset = 0,
  }: { state: UsState; eggType: EggType; count?: number | undefined; limit: number; offset?: number },
): Promise<PriceMapCheapestResult> {
  // The total rides on the page's rows; a page past the end gets it from the one row of `matching`.
  const rows = await sql<
    Array<{ id: number | null; per_dozen: number; city: string | null; name: string | null; total: number }>
  >`
    with matching as (
      select e.id, (e.price / p.count * 12)::float8 as per_dozen, l.city, l.name, e.price, p.count
      ${visibleEntries(sql, { eggType, count })}
        and l.state = ${state} and e.observed_at >= now() - make_interval(hours => ${TODAY_HOURS})
    )
    select page.id, page.per_dozen, page.city, page.name, (select count(*) from matching)::int as total
    from (select 1) one
    left join lateral (
      select * from matching order by matching.price / matching.count, matching.price, matching.id
      limit ${limit} offset ${offset}
    ) page on true`;
  const total = rows[0]?.total ?? 0;
  const picked = rows.filter((row): row is typeof row & { id: number } => row.id !== null);
  const entries = picked.length > 0 ? await listPriceEntries(sql, { ids: picked.map((row) => row.id) }) : [];
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  return {
    state,
    egg_type: eggType,
    count: count ?? null,
    total,
    entries: picked.flatMap((row) => {
      const entry = byId.get(row.id);
      return entry
        ? [{ ...entry, price_per_dozen: round(row.per_dozen, 2), city: row.city, location_name: row.name }]
        : [];
    }),
  };
}
