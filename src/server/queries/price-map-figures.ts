// The map by state's precomputed figures (migration 020, docs/decisions/011): per state, store,
// egg type, pack size and price, today's visible entries (price_state_figures) and their distinct
// locations (price_state_location_figures), and per day the observations last week's median is
// read from (price_state_daily_values); and from those, per egg type, pack size and state, the
// finished figures the map reads (price_state_summaries, price_state_week_medians). Recomputed in
// the caller's transaction: refreshRollups for the states of the store and region pairs it
// touched and the days it recomputed, the coverage directory for the states and regions a store
// moved between. Upserted in key order and the scope's rows without entries deleted, as the store
// page's figures are: two refreshes sharing a state wait for each other instead of failing on the
// key.
import { TODAY_HOURS } from '#shared/price-map.ts';
import type { Db } from '../db.ts';
import { medians, summaryBasis } from './price-map.ts';
import { scrapedStoreRegions, shownSource } from './prices.ts';
import type { StoreRegion } from './store-figures.ts';

/** What to recompute; everything when 'all'. */
export type PriceMapFiguresScope =
  | 'all'
  | {
      /** Today's figures of every state where these pairs have locations. */
      pairs?: readonly StoreRegion[];
      /** Today's figures and every kept day's observations of these states. */
      states?: readonly string[];
      /** These days' observations, in every state. */
      days?: readonly string[];
    };

/**
 * Two CTEs of a statement: upserts the rows of the CTE `fresh` into table, and deletes the
 * scope's rows that it lacks (the upserted ones are not among those). A row that has not changed
 * is left as it is (most of them, refresh after refresh): not rewritten with its indexes.
 */
function replaceRows(
  tx: Db,
  table: string,
  fresh: string,
  keys: readonly string[],
  values: readonly string[],
  scope: ReturnType<Db['unsafe']>,
) {
  const columns = tx.unsafe([...keys, ...values].join(', '));
  const key = tx.unsafe(keys.join(', '));
  return tx`
    ${tx.unsafe(`upserted_${fresh}`)} as (
      insert into ${tx(table)} as t (${columns})
      select ${columns} from ${tx.unsafe(fresh)} order by ${key}
      on conflict (${key}) do update set ${tx.unsafe(values.map((v) => `${v} = excluded.${v}`).join(', '))}
        where (${tx.unsafe(values.map((v) => `t.${v}`).join(', '))}) is distinct from (${tx.unsafe(values.map((v) => `excluded.${v}`).join(', '))})
    ), ${tx.unsafe(`deleted_${fresh}`)} as (
      delete from ${tx(table)} t
      where ${scope} and not exists (select 1 from ${tx.unsafe(fresh)} f where ${tx.unsafe(keys.map((k) => `f.${k} = t.${k}`).join(' and '))})
    )`;
}

export async function refreshPriceMapFigures(tx: Db, scope: PriceMapFiguresScope): Promise<void> {
  const all = scope === 'all';
  const pairs = all ? [] : (scope.pairs ?? []);
  const moved = all ? [] : (scope.states ?? []);
  const days = all ? [] : (scope.days ?? []);
  const states = [...moved];
  if (!all && pairs.length === 0 && moved.length === 0 && days.length === 0) return;

  // The states whose today's figures change: a pair's entries changed, or whether its sample
  // prices are hidden, wherever its locations are.
  if (pairs.length > 0) {
    const located = await tx<{ state: string }[]>`
      select distinct state from store_locations
      where state is not null and (store_id, region) in (
        select * from unnest(${tx.array(pairs.map((p) => p.store_id))}::text[], ${tx.array(pairs.map((p) => p.region))}::text[]))`;
    states.push(...located.map((row) => row.state));
  }
  if (all || states.length > 0) {
    const inStates = (alias: string) =>
      all ? tx`true` : tx`${tx.unsafe(alias)}.state = any(${tx.array(states)}::text[])`;
    // Today's visible entries of the states, whichever stores are active (applied when read). The
    // keys in the tables' collation ("C"), so that what is sorted against them compares bytes.
    const today = tx`
      today as materialized (
        select p.egg_type collate "C" as egg_type, p.count, l.state collate "C" as state, l.store_id collate "C" as store_id,
               e.location_id, e.price, e.observed_at, e.source
        from price_entries e
        join store_locations l on l.id = e.location_id
        join products p on p.id = e.product_id
        where l.state is not null and ${inStates('l')} and ${shownSource(tx)}
          and e.observed_at >= now() - make_interval(hours => ${TODAY_HOURS})
      )`;
    // One pass over them: each price, and each location (then the locations per pack size, and
    // over every pack size: count 0), with the oldest price read behind it.
    await tx`
      with ${today}, fresh_values as (
        select egg_type, count, state, store_id, price, (price / count * 12)::float8 as per_dozen, count(*)::int as entries,
               bool_or(source <> 'scrape') as sample, min(observed_at) + make_interval(hours => ${TODAY_HOURS}) as valid_until
        from today group by egg_type, count, state, store_id, price
      ), by_location as (
        select egg_type, count, state, store_id, location_id, min(observed_at) as oldest
        from today group by egg_type, count, state, store_id, location_id
      ), fresh_locations as (
        select egg_type, count, state, store_id, count(*)::int as locations, min(oldest) + make_interval(hours => ${TODAY_HOURS}) as valid_until
        from by_location group by egg_type, count, state, store_id
        union all
        select egg_type, 0, state, store_id, count(*)::int, min(oldest) + make_interval(hours => ${TODAY_HOURS})
        from (select egg_type, state, store_id, location_id, min(oldest) as oldest from by_location group by egg_type, state, store_id, location_id) l
        group by egg_type, state, store_id
      ), ${replaceRows(tx, 'price_state_figures', 'fresh_values', ['egg_type', 'count', 'state', 'store_id', 'price'], ['per_dozen', 'entries', 'sample', 'valid_until'], inStates('t'))},
      ${replaceRows(tx, 'price_state_location_figures', 'fresh_locations', ['egg_type', 'count', 'state', 'store_id'], ['locations', 'valid_until'], inStates('t'))}
      select`;
  }

  // The observations of the days, and every day of the moved states, from the day a reader can
  // still ask for on (7 days before today); older rows are dropped.
  if (all || days.length > 0 || moved.length > 0) {
    const since = tx`(now() at time zone 'UTC')::date - 7`;
    const wanted = (day: string, state: string) => {
      if (all) return tx`true`;
      const onDays = tx`${tx.unsafe(day)} = any(${tx.array([...days])}::date[])`;
      const ofStates = tx`${tx.unsafe(state)} = any(${tx.array([...moved])}::text[])`;
      if (moved.length === 0) return onDays;
      return days.length === 0 ? ofStates : tx`(${onDays} or ${ofStates})`;
    };
    await tx`delete from price_state_daily_values where day < ${since}`;
    await tx`delete from price_state_week_medians where day < ${since}`;
    await tx`
      with fresh as (
        select o.observed_on as day, p.egg_type collate "C" as egg_type, p.count, l.state collate "C" as state,
               l.store_id collate "C" as store_id, l.region collate "C" as region, o.price,
               (o.price / p.count * 12)::float8 as per_dozen, o.source collate "C" as source, count(*)::int as observations
        from price_observations o
        join store_locations l on l.id = o.location_id
        join products p on p.id = o.product_id
        where o.observed_on >= ${since} and l.state is not null and ${wanted('o.observed_on', 'l.state')}
        group by o.observed_on, p.egg_type, p.count, l.state, l.store_id, l.region, o.price, o.source
      ), ${replaceRows(tx, 'price_state_daily_values', 'fresh', ['day', 'egg_type', 'count', 'state', 'store_id', 'region', 'price', 'source'], ['per_dozen', 'observations'], wanted('t.day', 't.state'))}
      select`;
  }

  await refreshSummaries(tx, all ? 'all' : { states, days, moved: moved.length > 0 });
}

/**
 * The summaries (price_state_summaries, price_state_week_medians) of the states and days whose
 * rows were recomputed, from those rows; all of them when the stores' active flags or the hidden
 * pairs have changed since they were computed (or the states moved: every day's).
 */
async function refreshSummaries(
  tx: Db,
  scope: 'all' | { states: readonly string[]; days: readonly string[]; moved: boolean },
) {
  const [basis] = await tx<{ changed: boolean }[]>`
    with now_basis as (${summaryBasis(tx)})
    select not exists (select 1 from price_state_summary_basis b, now_basis n where b.stores = n.stores and b.hidden = n.hidden) as changed`;
  const given = scope === 'all' || basis!.changed ? null : scope;
  const all = given === null;
  const states = given?.states ?? [];
  const allDays = given === null || given.moved;
  const days = given?.days ?? [];
  if (!all && states.length === 0 && !allDays && days.length === 0) return;
  const keys = ['egg_type', 'count', 'state'];
  if (all || states.length > 0) {
    const inStates = (alias: string) =>
      all ? tx`true` : tx`${tx.unsafe(alias)}.state = any(${tx.array([...states])}::text[])`;
    // Each row counts for its pack size and for every pack size (count 0).
    await tx`
      with today_values as (
        select f.egg_type, c.count, f.state, f.per_dozen, f.entries as n, f.sample, f.valid_until
        from price_state_figures f
        join stores s on s.id = f.store_id
        cross join lateral (values (f.count), (0)) c(count)
        where s.active and ${inStates('f')}
      ), expiry as (
        select egg_type, count, state, min(valid_until) as valid_until from today_values group by egg_type, count, state
      ), today_stores as (
        select f.egg_type, f.count, f.state, sum(f.locations)::int as stores, min(f.valid_until) as valid_until
        from price_state_location_figures f
        join stores s on s.id = f.store_id
        where s.active and ${inStates('f')}
        group by f.egg_type, f.count, f.state
      ), fresh as (
        select m.egg_type, m.count, m.state, m.median, m.lowest, m.highest, m.entries, t.stores, m.sample,
               least(x.valid_until, t.valid_until) as valid_until
        from ${medians(tx, tx.unsafe('today_values'), keys)} m
        join today_stores t using (egg_type, count, state)
        join expiry x using (egg_type, count, state)
      ), ${replaceRows(tx, 'price_state_summaries', 'fresh', keys, ['median', 'lowest', 'highest', 'entries', 'stores', 'sample', 'valid_until'], inStates('t'))}
      select`;
  }
  if (allDays || days.length > 0) {
    const onDays = (alias: string) =>
      allDays ? tx`true` : tx`${tx.unsafe(alias)}.day = any(${tx.array([...days])}::date[])`;
    await tx`
      with week_values as (
        select v.day, v.egg_type, c.count, v.state, v.per_dozen, v.observations as n, false as sample
        from price_state_daily_values v
        join stores s on s.id = v.store_id
        cross join lateral (values (v.count), (0)) c(count)
        where s.active and ${onDays('v')}
          and (v.source <> 'sample' or (v.store_id, v.region) not in (${scrapedStoreRegions(tx)}))
      ), fresh as (
        select day, egg_type, count, state, median from ${medians(tx, tx.unsafe('week_values'), ['day', ...keys])} m
      ), ${replaceRows(tx, 'price_state_week_medians', 'fresh', ['day', ...keys], ['median'], onDays('t'))}
      select`;
  }
  if (all) {
    await tx`
      insert into price_state_summary_basis (id, stores, hidden)
      select true, stores, hidden from (${summaryBasis(tx)}) b
      on conflict (id) do update set stores = excluded.stores, hidden = excluded.hidden`;
  }
}
