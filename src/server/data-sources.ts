// What a cached answer is computed from, among the data that changes while the app runs: the
// current prices (a scrape run, NOTIFY eggwatch_prices) and the daily rollups (refreshed a second
// after prices change, NOTIFY eggwatch_rollups). The stores and the BLS series change only when
// the database is seeded: a procedure that reads nothing else declares no source (`[]`) and its
// answers live out their time to live. The read cache (cache.ts) drops an answer when one of its
// sources changes, and no other: a rollup refresh, which follows every price change, does not drop
// the price lists a second time, nor a price change the BLS series. Each cached procedure declares
// its sources where it is defined (cachedProcedure in trpc.ts).
//
// The official sources (BLS, USDA, APHIS; docs/features/data-sources.md) change when the worker
// reads them (NOTIFY eggwatch_official after each fetch): the benchmark and the official series.
export type DataSource = 'prices' | 'rollups' | 'official';

/** The channel each source's changes are announced on. */
export const SOURCE_CHANNELS: Record<DataSource, string> = {
  prices: 'eggwatch_prices',
  rollups: 'eggwatch_rollups',
  official: 'eggwatch_official',
};

/** For answers whose sources are not given: everything that changes. */
export const ALL_SOURCES: readonly DataSource[] = ['prices', 'rollups', 'official'];
