// Price events for the news ticker (SPEC §2 ticker, in the same four shapes as its fixed items):
// a region's egg type change this week, a store's run of daily rises or falls, a store's egg type
// on sale in a region, and an egg type's nationwide change this week. Each reads the prices the
// site shows (scraped prices, and sample prices where a store and region has no scraped ones) and
// says whether it rests on sample data. A shape with no true instance today yields null.
import { EGG_TYPE_LABELS, REGION_LABELS, STORE_NAMES, type EggType, type Region, type StoreId } from '#shared/vocabulary.ts';
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

const typeWord = (type: EggType) => EGG_TYPE_LABELS[type].toLowerCase();
/** "Pasture-raised": sentence case for the start of an item. */
const TypeWord = (type: EggType) => typeWord(type).charAt(0).toUpperCase() + typeWord(type).slice(1);

/** Observations the site shows: scraped ones, and sample ones where the store and region has no scraped price. */
const VISIBLE = `(o.source <> 'sample' or not exists (
    select 1 from price_entries se join store_locations sl on sl.id = se.location_id
    where se.source <> 'sample' and sl.store_id = l.store_id and sl.region = l.region))`;

interface WeekRow {
  region: Region;
  egg_type: EggType;
  this_week: number;
  last_week: number;
  sample: boolean;
}

/** Average per dozen this week (the 7 days to the latest day) against the 7 days before, per region and type. */
async function weeklyByRegion(sql: Db): Promise<WeekRow[]> {
  return sql<WeekRow[]>`
    with latest as (select max(day) as day from price_daily_rollups),
    weeks as (
      select r.region, r.egg_type,
             sum(r.avg_per_dozen * r.observations) filter (where r.day > latest.day - 7) / nullif(sum(r.observations) filter (where r.day > latest.day - 7), 0) as this_week,
             sum(r.avg_per_dozen * r.observations) filter (where r.day <= latest.day - 7) / nullif(sum(r.observations) filter (where r.day <= latest.day - 7), 0) as last_week
      from price_daily_rollups r, latest
      where r.day > latest.day - 14
      group by r.region, r.egg_type
    )
    select w.region, w.egg_type, w.this_week::float8 as this_week, w.last_week::float8 as last_week,
           exists (
             select 1 from price_entries e join store_locations l on l.id = e.location_id join products p on p.id = e.product_id
             where l.region = w.region and p.egg_type = w.egg_type and e.source <> 'scrape'
               and (e.source = 'demo' or not exists (
                 select 1 from price_entries se join store_locations sl on sl.id = se.location_id
                 where se.source <> 'sample' and sl.store_id = l.store_id and sl.region = l.region))) as sample
    from weeks w
    where w.this_week is not null and w.last_week is not null and w.last_week > 0`;
}

export async function regionWeeklyChange(sql: Db, rows?: WeekRow[]): Promise<TickerEvent | null> {
  const weeks = rows ?? (await weeklyByRegion(sql));
  let best: { row: WeekRow; change: number } | null = null;
  for (const row of weeks) {
    const change = ((row.this_week - row.last_week) / row.last_week) * 100;
    if (Math.round(Math.abs(change)) >= MIN_WEEKLY_CHANGE && (!best || Math.abs(change) > Math.abs(best.change))) best = { row, change };
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
  const byType = new Map<EggType, { now: number; before: number; n: number; sample: boolean }>();
  for (const row of weeks) {
    const t = byType.get(row.egg_type) ?? { now: 0, before: 0, n: 0, sample: false };
    byType.set(row.egg_type, { now: t.now + row.this_week, before: t.before + row.last_week, n: t.n + 1, sample: t.sample || row.sample });
  }
  let best: { type: EggType; change: number; sample: boolean } | null = null;
  for (const [type, t] of byType) {
    const change = ((t.now - t.before) / t.before) * 100;
    if (Math.round(Math.abs(change)) >= MIN_WEEKLY_CHANGE && (!best || Math.abs(change) > Math.abs(best.change))) best = { type, change, sample: t.sample };
  }
  if (!best) return null;
  return {
    kind: 'national-week',
    text: `${TypeWord(best.type)} eggs seeing a nationwide price ${best.change < 0 ? 'drop' : 'rise'}`,
    trend: best.change < 0 ? 'down' : 'up',
    sample: best.sample,
  };
}

/** The longest run of consecutive daily rises or falls of a store's average price per dozen, ending on its latest day. */
export async function storeStreak(sql: Db): Promise<TickerEvent | null> {
  const rows = await sql<Array<{ store_id: StoreId; day: string; per_dozen: number; sample: boolean }>>`
    with latest as (select max(observed_on) as day from price_observations)
    select l.store_id, o.observed_on::text as day, avg(o.price / p.count * 12)::float8 as per_dozen, bool_or(o.source <> 'scrape') as sample
    from price_observations o
    join store_locations l on l.id = o.location_id
    join stores s on s.id = l.store_id and s.active
    join products p on p.id = o.product_id, latest
    where o.observed_on > latest.day - 12 and ${sql.unsafe(VISIBLE)}
    group by l.store_id, o.observed_on
    order by l.store_id, o.observed_on`;
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
  return { kind: 'store-streak', text: `${STORE_NAMES[best.store]} egg prices ${best.direction} ${best.days} days in a row`, trend: best.direction, sample: best.sample };
}

/** The deepest sale: a store's egg type in a region whose current average is at least 10% under its 30-day average. */
export async function storeSale(sql: Db): Promise<TickerEvent | null> {
  const [row] = await sql<Array<{ store_id: StoreId; region: Region; egg_type: EggType; discount: number; sample: boolean }>>`
    with current_prices as (
      select l.store_id, l.region, p.egg_type, avg(e.price / p.count * 12) as now, bool_or(e.source <> 'scrape') as sample
      from price_entries e
      join store_locations l on l.id = e.location_id
      join stores s on s.id = l.store_id and s.active
      join products p on p.id = e.product_id
      where (e.source <> 'sample' or not exists (
        select 1 from price_entries se join store_locations sl on sl.id = se.location_id
        where se.source <> 'sample' and sl.store_id = l.store_id and sl.region = l.region))
      group by l.store_id, l.region, p.egg_type
    ), month as (
      select l.store_id, l.region, p.egg_type, avg(o.price / p.count * 12) as average
      from price_observations o
      join store_locations l on l.id = o.location_id
      join products p on p.id = o.product_id
      where o.observed_on > (select max(observed_on) from price_observations) - 30 and ${sql.unsafe(VISIBLE)}
      group by l.store_id, l.region, p.egg_type
    )
    select c.store_id, c.region, c.egg_type, ((m.average - c.now) / m.average * 100)::float8 as discount, c.sample
    from current_prices c join month m using (store_id, region, egg_type)
    where m.average > 0 and c.now <= m.average * ${1 - SALE_PERCENT / 100}
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

/** The ticker: the four shapes in SPEC's order, each present only when true of today's prices. */
export async function tickerEvents(sql: Db): Promise<TickerEvent[]> {
  const weeks = await weeklyByRegion(sql);
  const [region, streak, sale, national] = await Promise.all([regionWeeklyChange(sql, weeks), storeStreak(sql), storeSale(sql), nationalWeeklyChange(sql, weeks)]);
  return [region, streak, sale, national].filter((event): event is TickerEvent => event !== null);
}
