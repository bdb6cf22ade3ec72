// "Where are eggs cheapest" has one answer on every screen (src/server/queries/cheapest.ts): on a
// fresh sample database, and with an 18-pack that is cheaper per dozen than the store's dozen,
// the dashboard's first card, the Lowest price card, Near you's first row, the store page's
// cheapest competitor and the compare page's lowest name the same price per dozen where they
// claim the same thing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { callerFor } from '../../../test/caller.ts';
import { addListing } from '../../../test/listings.ts';
import { refreshRollups } from '../queries/rollups.ts';
import { DEFAULT_FILTERS } from '#shared/filters.ts';
import { roundCents } from '#shared/format.ts';

let db: TestDatabase;
let caller: ReturnType<typeof callerFor>;

const perDozen = (e: { price: number; count: number }) => roundCents((e.price / e.count) * 12);

beforeAll(async () => {
  db = await createTestDatabase();
  caller = callerFor({ sql: db.sql });
  await refreshRollups(db.sql, { all: true });
});
afterAll(() => db.drop());

/** What each screen says is cheapest for standard eggs in the Northeast, near 10001 (every sample store is there). */
async function answers() {
  const northeast = { ...DEFAULT_FILTERS, region: 'northeast' as const, eggType: 'standard' as const };
  const dashboard = await caller.prices.dashboard({ filters: northeast, pageSize: 9 });
  const everywhere = await caller.prices.dashboard({ pageSize: 9 });
  const stats = await caller.stats.get();
  const near = await caller.prices.near({ zip: '10001', radius: 5, egg_type: 'standard' });
  const compare = await caller.compare.byType({ eggType: 'standard', region: 'northeast' });
  // The store page of the second cheapest: its cheapest competitor is the first.
  const second = dashboard.items[1]!;
  const insights = await caller.stores.insights({
    storeId: second.store_id,
    region: 'northeast',
    egg_type: 'standard',
  });
  const position = insights.competitive.market_position.find(
    (p) => p.egg_type === 'standard' && p.region === 'northeast',
  )!;
  return { dashboard, everywhere, stats, near, compare, second, position };
}

async function expectAgreement() {
  const { dashboard, everywhere, stats, near, compare, second, position } = await answers();
  const first = dashboard.items[0]!;
  // The first card is the cheapest per dozen: Near you's first row and the compare page's lowest.
  expect(near.entries[0]!.price_per_dozen).toBe(perDozen(first));
  expect(compare.summary.lowest).toMatchObject({ store_id: first.store_id, price_per_dozen: perDozen(first) });
  // The second store's cheapest competitor is the first card, and its own price its card's.
  expect(position.cheapest_competitor).toMatchObject({ store_id: first.store_id, price_per_dozen: perDozen(first) });
  expect(position.price_per_dozen).toBe(perDozen(second));
  // Under no filters, the first card is the Lowest price card.
  const top = everywhere.items[0]!;
  expect(stats.lowest_price).toMatchObject({
    store_id: top.store_id,
    price: top.price,
    count: top.count,
    price_per_dozen: perDozen(top),
  });
  return first;
}

describe('one answer to "where are eggs cheapest"', () => {
  it('on a fresh sample database', async () => {
    await expectAgreement();
  });

  it("when a store's 18-pack is cheaper per dozen than its dozen, every screen names the 18-pack", async () => {
    const { dashboard } = await answers();
    const cheapest = perDozen(dashboard.items[0]!);
    // Aldi's 18-pack in New York, a cent a dozen under the cheapest there.
    const price = roundCents(((cheapest - 0.01) * 18) / 12);
    await addListing(db.sql, { store: 'aldi', zip: '10001', count: 18, price });
    // Its scraped dozen (which hides its sample prices there), dearer per dozen.
    await addListing(db.sql, { store: 'aldi', zip: '10001', count: 12, price: roundCents(cheapest + 0.3) });
    await refreshRollups(db.sql, { all: true });
    const first = await expectAgreement();
    expect(first).toMatchObject({ store_id: 'aldi', count: 18, price });
    // Aldi's dozen is still on the shelf, dearer per dozen: the card shows the 18-pack.
    const aldi = (await caller.prices.list({ store: 'aldi', region: 'northeast', egg_type: 'standard' })).map(perDozen);
    expect(aldi.length).toBeGreaterThan(1);
    expect(Math.min(...aldi)).toBe(perDozen(first));
  });
});
