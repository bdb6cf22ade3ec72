// readPriceMap's medians, ranges and counts, worked out from a few rows per state (its prices per
// dozen with how many entries have each), against percentile_cont over the entries one by one, on
// the seeded catalogue (many states, odd and even numbers of entries, repeated prices).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { readPriceMap } from './price-map.ts';
import { refreshRollups } from './rollups.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  // The map reads the figures the rollup refresh keeps (migration 020).
  await refreshRollups(db.sql, { all: true });
});
afterAll(() => db.drop());

interface Expected {
  state: string;
  median: number;
  lowest: number;
  highest: number;
  entries: number;
  stores: number;
}

/** The figures straight from today's entries (the seed has only sample prices, all shown). */
function expected(eggType: string, count?: number) {
  return db.sql<Expected[]>`
    select l.state, percentile_cont(0.5) within group (order by e.price / p.count * 12)::float8 as median,
           min(e.price / p.count * 12)::float8 as lowest, max(e.price / p.count * 12)::float8 as highest,
           count(*)::int as entries, count(distinct e.location_id)::int as stores
    from price_entries e join products p on p.id = e.product_id join store_locations l on l.id = e.location_id
    where p.egg_type = ${eggType} and l.state is not null and e.observed_at >= now() - interval '48 hours'
      ${count ? db.sql`and p.count = ${count}` : db.sql``}
    group by l.state`;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

describe('readPriceMap', () => {
  it("gives each state's median per dozen as percentile_cont does over its entries, with the range and counts", async () => {
    for (const [eggType, count] of [
      ['standard', undefined],
      ['organic', undefined],
      ['cage_free', 12],
    ] as const) {
      const rows = await expected(eggType, count);
      expect(rows.length).toBeGreaterThan(3);
      // Both odd and even numbers of entries in a state, so both ways of taking the median are checked.
      expect(new Set(rows.map((r) => r.entries % 2)).size).toBe(2);
      const result = await readPriceMap(db.sql, { eggType, count });
      for (const row of rows) {
        expect(
          result.states.find((s) => s.state === row.state),
          row.state,
        ).toMatchObject({
          median_per_dozen: round2(row.median),
          lowest_per_dozen: round2(row.lowest),
          highest_per_dozen: round2(row.highest),
          entries: row.entries,
          stores: row.stores,
        });
      }
      expect(result.states.filter((s) => s.entries > 0).length).toBe(rows.length);
    }
  });
});
