// What each cacheable query's answer is computed from, among the data that changes while the app
// runs: the current prices (a scrape run, NOTIFY eggwatch_prices) and the daily rollups
// (refreshed a second after prices change, NOTIFY eggwatch_rollups). The stores and the BLS
// series change only when the database is seeded; answers that read nothing else live out their
// time to live. The read cache (cache.ts) drops an answer when one of its sources changes, and
// no other: a rollup refresh, which follows every price change, no longer drops the price lists
// a second time, nor a price change the BLS series.
export type DataSource = 'prices' | 'rollups';

/** The channel each source's changes are announced on. */
export const SOURCE_CHANNELS: Record<DataSource, string> = { prices: 'eggwatch_prices', rollups: 'eggwatch_rollups' };

const PRICES: readonly DataSource[] = ['prices'];
const PRICES_AND_ROLLUPS: readonly DataSource[] = ['prices', 'rollups'];
const STATIC: readonly DataSource[] = [];

/** Every cacheable query (procedures.ts) and what it reads. */
export const QUERY_SOURCES: Readonly<Record<string, readonly DataSource[]>> = {
  'prices.all': PRICES,
  'prices.list': PRICES,
  'prices.dashboard': PRICES_AND_ROLLUPS,
  'prices.lookup': PRICES,
  'prices.count': PRICES,
  'prices.near': PRICES,
  'prices.byState': PRICES_AND_ROLLUPS,
  'prices.stateCheapest': PRICES,
  'prices.history': PRICES,
  'stores.list': STATIC,
  'stores.byId': STATIC,
  'stores.prices': PRICES,
  'stores.insights': PRICES_AND_ROLLUPS,
  'stores.filterOptions': PRICES_AND_ROLLUPS,
  'stores.locationFigures': PRICES_AND_ROLLUPS,
  'stats.get': PRICES_AND_ROLLUPS,
  'market.series': STATIC,
  'compare.byType': PRICES_AND_ROLLUPS,
  'news.ticker': PRICES_AND_ROLLUPS,
};

/** What a query reads; anything not listed is taken to read everything that changes. */
export function sourcesOf(...queries: string[]): readonly DataSource[] {
  const sources = new Set<DataSource>();
  for (const query of queries) for (const source of QUERY_SOURCES[query] ?? PRICES_AND_ROLLUPS) sources.add(source);
  return [...sources];
}

/** For keys whose sources are not given: everything that changes. */
export const ALL_SOURCES = PRICES_AND_ROLLUPS;
