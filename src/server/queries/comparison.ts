// Shelf, advertised and wholesale on one weekly axis (docs/features/data-sources.md): EggWatch's
// own shelf price per dozen for a region and egg type (daily rollups, the week's mean), USDA's
// advertised price for the matching USDA region and egg type, and the National Shell Egg Index
// (cents a dozen as published, shown in dollars); the lead of wholesale measured on that history
// and the shelf outlook only when its backtest beats no change.
import type { Db } from '../db.ts';
import { backtest, measureLead, outlook } from '#shared/lead.ts';
import {
  APP_REGION_TO_USDA,
  USDA_WHOLESALE_SERIES_ID,
  usdaRetailSeriesId,
  type Comparison,
  type ComparisonWeek,
  type UsdaEggType,
} from '#shared/official.ts';

const WEEKS = 104;

export async function comparison(
  sql: Db,
  input: {
    region: 'northeast' | 'midwest' | 'south' | 'west';
    eggType: 'standard' | 'cage_free' | 'organic' | 'pasture_raised';
  },
): Promise<Comparison> {
  const usdaRegion = APP_REGION_TO_USDA[input.region];
  const retailId = usdaRetailSeriesId(usdaRegion, input.eggType as UsdaEggType);
  const rows = await sql<
    Array<{ week: string; shelf: number | null; advertised: number | null; wholesale: number | null }>
  >`
    with weeks as (
      select generate_series(date_trunc('week', current_date - ${WEEKS * 7}::int)::timestamp, date_trunc('week', current_date)::timestamp, interval '1 week')::date as week
    ),
    shelf as (
      select date_trunc('week', day)::date as week, avg(avg_per_dozen) as v
      from price_daily_rollups where region = ${input.region} and egg_type = ${input.eggType}
      group by 1
    ),
    advertised as (
      select date_trunc('week', period)::date as week, avg(value) as v
      from official_observations where series_id = ${retailId} group by 1
    ),
    wholesale as (
      select date_trunc('week', period)::date as week,
             avg(case when unit ilike '%cent%' then value / 100 else value end) as v
      from official_observations where series_id = ${USDA_WHOLESALE_SERIES_ID} group by 1
    )
    select to_char(w.week, 'YYYY-MM-DD') as week, s.v as shelf, a.v as advertised, x.v as wholesale
    from weeks w
    left join shelf s using (week) left join advertised a using (week) left join wholesale x using (week)
    order by w.week`;
  const weeks: ComparisonWeek[] = rows.map((r) => ({
    week: r.week,
    shelf: r.shelf === null ? null : Number(r.shelf),
    advertised: r.advertised === null ? null : Number(r.advertised),
    wholesale: r.wholesale === null ? null : Number(r.wholesale),
  }));
  // (the history begins at the first week any series has a figure)
  const first = weeks.findIndex((w) => w.shelf !== null || w.advertised !== null || w.wholesale !== null);
  const held = first < 0 ? [] : weeks.slice(first);
  const wholesale = held.map((w) => w.wholesale);
  const shelf = held.map((w) => w.shelf);
  const shelfLead = measureLead(wholesale, shelf);
  const advertisedLead = measureLead(
    wholesale,
    held.map((w) => w.advertised),
  );
  let outlookResult: Comparison['outlook'] = null;
  if (shelfLead && shelfLead.weeks > 0) {
    const test = backtest(wholesale, shelf, shelfLead.weeks);
    if (test) {
      const shown = test.modelError < test.naiveError;
      const next = shown ? outlook(wholesale, shelf, shelfLead.weeks) : null;
      const lastWeek = held.at(-1)!.week;
      outlookResult = {
        shown: shown && next !== null,
        modelError: test.modelError,
        naiveError: test.naiveError,
        backtestWeeks: test.weeks,
        points: (next ?? []).map((value, i) => {
          const day = new Date(`${lastWeek}T00:00:00Z`);
          day.setUTCDate(day.getUTCDate() + 7 * (i + 1));
          return { week: day.toISOString().slice(0, 10), shelf: value };
        }),
      };
    }
  }
  const [latest] = await sql<
    Array<{ period: string; value: number; detail: { low?: number; high?: number; stores?: number } | null }>
  >`
    select to_char(period, 'YYYY-MM-DD') as period, value, detail from official_observations
    where series_id = ${retailId} order by period desc limit 1`;
  const [scraped] = await sql<Array<{ any: boolean }>>`
    select exists (
      select 1 from price_entries e
      join store_locations l on l.id = e.location_id join products p on p.id = e.product_id
      where e.source = 'scrape' and l.region = ${input.region} and p.egg_type = ${input.eggType}) as any`;
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  return {
    region: input.region,
    usdaRegion,
    eggType: input.eggType,
    weeks: held,
    shelfIsSample: !scraped?.any,
    shelfLead,
    advertisedLead,
    outlook: outlookResult,
    latestAdvertised: latest
      ? {
          week: latest.period,
          price: Number(latest.value),
          low: num(latest.detail?.low),
          high: num(latest.detail?.high),
          stores: num(latest.detail?.stores),
        }
      : null,
  };
}
