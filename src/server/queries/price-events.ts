// Price events for the news ticker (in the same four shapes as its fixed items):
// a region's egg type change this week, a store's run of daily rises or falls, a store's egg type
// on sale in a region, and an egg type's nationwide change this week. Each reads the prices the
// site shows (scraped prices, and sample prices where a store and region has no scraped ones) and
// says whether it rests on sample data. Each compares a series only within its history: from the
// latest switch from sample to retailers' prices behind it on (docs/decisions/008), so an item
// needs that history to span what it compares. A shape with no true instance today yields null.
// All four read the daily rollups (rollups.ts), never weeks of observations: they answer as of the
// last refresh, which follows every price change by a second or so.
import {
  EGG_TYPE_LABELS,
  REGION_LABELS,
  STORE_NAMES,
  type EggType,
  type Region,
  type StoreId,
} from '#shared/vocabulary.ts';
import type { Db } from '../db.ts';

export interface TickerEvent {
  kind: 'region-week' | 'store-streak' | 'sale' | 'national-week';
  text: string;
  trend: 'up' | 'down' | 'none';
  /** The event rests (partly) on sample or demo prices, not only on retailers' prices. */
  sample: boolean;
}

/** Changes smaller than this (percent) are not news. */
export const MIN_WEEKLY_CHANGE = 1;
/** A sale: the current price at least this much under its 30-day average (percent). */
export const SALE_PERCENT = 10;
/** A streak: at least this many consecutive daily rises or falls. */
export const MIN_STREAK = 3;
/** A weekly item compares two weeks: its series needs this many days of history. */
export const WEEKLY_HISTORY_DAYS = 14;
/** A sale compares with the average of up to 30 days, of at least this many days of history. */
export const SALE_HISTORY_DAYS = 14;

const typeWord = (type: EggType) => EGG_TYPE_LABELS[type].toLowerCase();
/** "Pasture-raised": sentence case for the start of an item. */
const TypeWord = (type: EggType) => typeWord(type).charAt(0).toUpperCase() + typeWord(type).slice(1);

interface WeekRow {
  region: Region;
  egg_type: EggType;
  this_week: number;
  last_week: number;
  sample: boolean;
  /** The series' history spans both weeks. */
  full: boolean;
}

/** Average per dozen this week (the 7 days to the latest day) against the 7 days before, per region and type. */
async function weeklyByRegion(sql: Db): Promise<WeekRow[]> {
  return sql<WeekRow[]>`
    with latest as (select max(day) as day from price_daily_rollups),
    starts as (
      select region, egg_type, greatest(min(day), max(series_since)) as start
      from price_daily_rollups group by region, egg_type
    ),
    weeks as (
      select r.region, r.egg_type,
             sum(r.avg_per_dozen * r.observations) filter (where r.day > latest.day - 7) / nullif(sum(r.observations) filter (where r.day > latest.day - 7), 0) as this_week,
             sum(r.avg_per_dozen * r.observations) filter (where r.day <= latest.day - 7) / nullif(sum(r.observations) filter (where r.day <= latest.day - 7), 0) as last_week,
             bool_or(r.sample) as sample
      from price_daily_rollups r, latest
      where r.day > latest.day - ${WEEKLY_HISTORY_DAYS}::int
      group by r.region, r.egg_type
    )
    select w.region, w.egg_type, w.this_week::float8 as this_week, w.last_week::float8 as last_week, w.sample,
           s.start <= latest.day - ${WEEKLY_HISTORY_DAYS - 1}::int as full
    from weeks w join starts s using (region, egg_type), latest
    where w.this_week is not null and w.last_week is not null and w.last_week > 0`;
}

export async function regionWeeklyChange(sql: Db, rows?: WeekRow[]): Promise<TickerEvent | null> {
  const weeks = rows ?? (await weeklyByRegion(sql));
  let best: { row: WeekRow; change: number } | null = null;
  for (const row of weeks) {
    if (!row.full) continue;
    const change = ((row.this_week - row.last_week) / row.last_week) * 100;
    if (Math.round(Math.abs(change)) >= MIN_WEEKLY_CHANGE && (!best || Math.abs(change) > Math.abs(best.change)))
      best = { row, change };
  }
  if (!best) return null;
  const direction = best.change < 0 ? 'down' : 'up';
  return {
    kind: 'region-week',
    text: `${REGION_LABELS[best.row.region]} ${typeWord(best.row.egg_type)} prices ${direction} ${Math.round(Math.abs(best.change))}% this week`,
    trend: direction,
    sample: best.row.sample,
  };
}

export async function nationalWeeklyChange(sql: Db, rows?: WeekRow[]): Promise<TickerEvent | null> {
  const weeks = rows ?? (await weeklyByRegion(sql));
  // An egg type's nationwide series spans every region that sells it: each needs its two weeks.
  const byType = new Map<EggType, { now: number; before: number; n: number; sample: boolean; full: boolean }>();
  for (const row of weeks) {
    const t = byType.get(row.egg_type) ?? { now: 0, before: 0, n: 0, sample: false, full: true };
    byType.set(row.egg_type, {
      now: t.now + row.this_week,
      before: t.before + row.last_week,
      n: t.n + 1,
      sample: t.sample || row.sample,
      full: t.full && row.full,
    });
  }
  let best: { type: EggType; change: number; sample: boolean } | null = null;
  for (const [type, t] of byType) {
    if (!t.full) continue;
    const change = ((t.now - t.before) / t.before) * 100;
    if (Math.round(Math.abs(change)) >= MIN_WEEKLY_CHANGE && (!best || Math.abs(change) > Math.abs(best.change)))
      best = { type, change, sample: t.sample };
  }
  if (!best) return null;
  return {
    kind: 'national-week',
    text: `${TypeWord(best.type)} eggs seeing a nationwide price ${best.change < 0 ? 'drop' : 'rise'}`,
    trend: best.change < 0 ? 'down' : 'up',
    sample: best.sample,
  };
}

/**
 * The longest run of consecutive daily rises or falls of a store's average price per dozen, ending
 * on its latest day, within the store's history (from the latest switch of one of its regions).
 * Read from the per-store rollup: a store's day is the sum of its rows' prices per dozen over
 * their number, the exact average of its visible observations that day.
 */
export async function storeStreak(sql: Db): Promise<TickerEvent | null> {
  const rows = await sql<Array<{ store_id: StoreId; day: string; per_dozen: number; sample: boolean }>>`
    with latest as (select max(observed_on) as day from price_observations),
    switched as (select store_id, max(switched_on) as since from store_region_switches group by store_id)
    select r.store_id, r.day::text as day, (sum(r.sum_per_dozen) / sum(r.observations))::float8 as per_dozen, bool_or(r.sample) as sample
    from price_store_daily_rollups r
    left join switched sw on sw.store_id = r.store_id, latest
    where r.day > latest.day - 12 and (sw.since is null or r.day >= sw.since)
    group by r.store_id, r.day
    order by r.store_id, r.day`;
  let best: { store: StoreId; days: number; direction: 'up' | 'down'; sample: boolean } | null = null;
  type DayRow = (typeof rows)[number];
  const byStore = new Map<StoreId, DayRow[]>();
  for (const row of rows) {
    const list = byStore.get(row.store_id);
    if (list) list.push(row);
    else byStore.set(row.store_id, [row]);
  }
  for (const [store, days] of byStore) {
    let run = 0;
    let direction: 'up' | 'down' | null = null;
    let sample = false;
    for (let i = days.length - 1; i > 0; i--) {
      const today = days[i]!;
      const before = days[i - 1]!;
      // Consecutive calendar days only.
      if (Date.parse(today.day) - Date.parse(before.day) !== 86_400_000) break;
      const diff = Math.round(today.per_dozen * 100) - Math.round(before.per_dozen * 100);
      const step = diff > 0 ? 'up' : diff < 0 ? 'down' : null;
      if (!step || (direction && step !== direction)) break;
      direction = step;
      run++;
      sample ||= today.sample || before.sample;
    }
    if (direction && run >= MIN_STREAK && (!best || run > best.days)) best = { store, days: run, direction, sample };
  }
  if (!best) return null;
  return {
    kind: 'store-streak',
    text: `${STORE_NAMES[best.store]} egg prices ${best.direction} ${best.days} days in a row`,
    trend: best.direction,
    sample: best.sample,
  };
}

/**
 * The deepest sale: a store's egg type in a region whose current average is at least 10% under its
 * average over the last 30 days, read within its history and only with 14 days of it or more.
 * The current average is its visible price entries' (summed per store, region, type and source in
 * price_store_current_rollups: the rollup's latest day will not do, as it holds only the prices
 * observed that day, while a price entry is its pair's latest price whatever day that was); the
 * 30-day average its visible observations' (the per-store rollup's sums over their number).
 */
export async function storeSale(sql: Db): Promise<TickerEvent | null> {
  const [row] = await sql<
    Array<{ store_id: StoreId; region: Region; egg_type: EggType; discount: number; sample: boolean }>
  >`
    with current_prices as (
      select c.store_id, c.region, c.egg_type, sum(c.sum_per_dozen) / sum(c.entries) as now, bool_or(c.source <> 'scrape') as sample
      from price_store_current_rollups c
      join stores s on s.id = c.store_id and s.active
      where (c.source <> 'sample' or not exists (
        select 1 from store_region_switches sw where sw.store_id = c.store_id and sw.region = c.region))
      group by c.store_id, c.region, c.egg_type
    ), latest as (
      select max(observed_on) as day from price_observations
    ), month as (
      -- A switched store and region has no sample prices here and no others before its switch, so
      -- the first day read is where its history starts (or the window's first day).
      select r.store_id, r.region, r.egg_type, sum(r.sum_per_dozen) / sum(r.observations) as average, min(r.day) as first_day
      from price_store_daily_rollups r, latest
      where r.day > latest.day - 30
      group by r.store_id, r.region, r.egg_type
    )
    select c.store_id, c.region, c.egg_type, ((m.average - c.now) / m.average * 100)::float8 as discount, c.sample
    from current_prices c join month m using (store_id, region, egg_type), latest
    where m.average > 0 and c.now <= m.average * ${1 - SALE_PERCENT / 100}
      and m.first_day <= latest.day - ${SALE_HISTORY_DAYS - 1}::int
    order by discount desc, c.store_id, c.region, c.egg_type
    limit 1`;
  if (!row) return null;
  return {
    kind: 'sale',
    text: `${TypeWord(row.egg_type)} eggs on sale at ${STORE_NAMES[row.store_id]} in the ${REGION_LABELS[row.region]}`,
    trend: 'none',
    sample: row.sample,
  };
}

/** The ticker: the four shapes in this order, each present only when true of today's prices. */
export async function tickerEvents(sql: Db): Promise<TickerEvent[]> {
  const weeks = await weeklyByRegion(sql);
  const [region, streak, sale, national] = await Promise.all([
    regionWeeklyChange(sql, weeks),
    storeStreak(sql),
    storeSale(sql),
    nationalWeeklyChange(sql, weeks),
  ]);
  return [region, streak, sale, national].filter((event): event is TickerEvent => event !== null);
}
