import type { Db } from '../db.ts';

export interface MarketSeries {
  series_id: string;
  region: string;
  item: string;
  grade: 'A' | 'AA';
  points: Array<{ period: string; price: number }>;
}

/** The BLS series, oldest month first, from `from` (YYYY-MM-01) on. Months BLS did not publish have no point. */
export async function marketSeries(
  sql: Db,
  options: { from?: string | undefined; regions?: string[] | undefined } = {},
): Promise<MarketSeries[]> {
  const rows = await sql<
    Array<{ series_id: string; region: string; item: string; grade: 'A' | 'AA'; periods: string[]; prices: number[] }>
  >`
    select series_id, region, item, grade,
           array_agg(to_char(period, 'YYYY-MM') order by period) as periods,
           array_agg(price order by period) as prices
    from market_prices
    where true
      ${options.from ? sql`and period >= ${options.from}::date` : sql``}
      ${options.regions?.length ? sql`and region = any(${sql.array(options.regions)}::text[])` : sql``}
    group by series_id, region, item, grade
    order by series_id`;
  return rows.map((r) => ({
    series_id: r.series_id,
    region: r.region,
    item: r.item,
    grade: r.grade,
    points: r.periods.map((period, i) => ({ period, price: Number(r.prices[i]) })),
  }));
}
