import type { Db } from '../db.ts';
import { BLS_SERIES } from '#shared/official.ts';

export interface MarketSeries {
  series_id: string;
  region: string;
  item: string;
  grade: 'A' | 'AA';
  points: Array<{ period: string; price: number }>;
  /** The newest month and the day BLS published it (null for months of the seed data, whose day is unknown). */
  latest: { period: string; publishedOn: string | null } | null;
}

/**
 * The BLS series, oldest month first, from `from` (YYYY-MM-01) on: the months the worker read from
 * BLS (official_observations, with their publication day), and for the months it has not read the
 * seed data of data/ (market_prices). Months BLS did not publish have no point.
 */
export async function marketSeries(
  sql: Db,
  options: { from?: string | undefined; regions?: string[] | undefined } = {},
): Promise<MarketSeries[]> {
  const catalogue = JSON.stringify(
    BLS_SERIES.map((s) => ({ series_id: s.id, region: s.region, item: s.item, grade: s.grade })),
  );
  const rows = await sql<
    Array<{
      series_id: string;
      region: string;
      item: string;
      grade: 'A' | 'AA';
      periods: string[];
      prices: number[];
      published: Array<string | null>;
    }>
  >`
    with catalogue as (
      select * from jsonb_to_recordset(${catalogue}::text::jsonb) as c(series_id text, region text, item text, grade text)
    ),
    points as (
      select o.series_id, c.region, c.item, c.grade, o.period, o.value as price, o.published_on
      from official_observations o join catalogue c using (series_id)
      where o.source = 'bls'
      union all
      select m.series_id, m.region, m.item, m.grade, m.period, m.price, null::date
      from market_prices m
      where not exists (select 1 from official_observations o where o.series_id = m.series_id and o.period = m.period)
    )
    select series_id, region, item, grade,
           array_agg(to_char(period, 'YYYY-MM') order by period) as periods,
           array_agg(price order by period) as prices,
           array_agg(to_char(published_on, 'YYYY-MM-DD') order by period) as published
    from points
    where true
      ${options.from ? sql`and period >= ${options.from}::date` : sql``}
      ${options.regions?.length ? sql`and region = any(${sql.array(options.regions)}::text[])` : sql``}
    group by series_id, region, item, grade
    order by series_id`;
  return rows.map((r) => {
    const last = r.periods.length - 1;
    return {
      series_id: r.series_id,
      region: r.region,
      item: r.item,
      grade: r.grade,
      points: r.periods.map((period, i) => ({ period, price: Number(r.prices[i]) })),
      latest: last >= 0 ? { period: r.periods[last]!, publishedOn: r.published[last] ?? null } : null,
    };
  });
}
