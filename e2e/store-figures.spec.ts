// What a store's locations charge (docs/decisions/010-location-figures.md): a price card and the store page show the median
// price per dozen across the store's locations with its range and how many, and the cheapest
// location is one click away (its price history). Axe on each screen; phone and desktop widths.
// Adds Whole Foods' pasture-raised dozen at three Texas stores (idempotent: the widths share a
// database): no other journey reads Whole Foods in the South, nothing is within 50 miles of the
// ZIP codes Near you searches, and the prices are dearer than any sample price, so they head no
// list another journey reads; the store's dashboard card stays its standard dozen.
import type { Page } from '@playwright/test';
import { addListing } from '../test/listings.ts';
import type { Db as AppDb } from '#server/db.ts';
import { expect, test, type Db } from './db.ts';
import { expectAccessible, snap } from './ui.ts';

const STORES = [
  { zip: '77002', price: 7.99 },
  { zip: '75201', price: 8.49 },
  { zip: '78701', price: 9.29 },
] as const;
const FIGURES = 'median $8.49 a dozen across 3 stores, $7.99 to $9.29';

async function ensureListings(db: Db): Promise<void> {
  const [row] = await db<{ n: number }[]>`
    select count(*)::int as n from store_locations
    where store_id = 'whole-foods' and zip = any(${STORES.map((s) => s.zip)}::text[])`;
  if (row!.n === STORES.length) return;
  for (const { zip, price } of STORES)
    await addListing(db as unknown as AppDb, {
      store: 'whole-foods',
      zip,
      price,
      eggType: 'pasture_raised',
      locationName: `Whole Foods Market ${zip}`,
    });
}

/**
 * Waits for the worker's rollup to have counted the three stores: the dashboard's cards read the
 * figures of the latest rollup refresh, and one that ran between two of the inserts (each asks
 * for a refresh a second later, and on a busy machine the inserts can take longer) counts two
 * until the next, which the page, loaded once, would not see.
 */
async function rolledUp(db: Db): Promise<void> {
  await expect
    .poll(
      async () =>
        (
          await db<{ n: number }[]>`
            select coalesce(max(locations), 0)::int as n from price_location_figures
            where store_id = 'whole-foods' and region = 'south' and egg_type = 'pasture_raised' and count = 12`
        )[0]!.n,
      { timeout: 30_000 },
    )
    .toBe(STORES.length);
}

const cheapestLink = (scope: ReturnType<Page['locator']>) =>
  scope.getByRole('link', { name: /^Cheapest: Houston, TX\s*\(Whole Foods at \$7\.99 a dozen: its price history\)$/ });

test("a card and the store page show what the store's locations charge, with the cheapest location one click away", async ({
  page,
  db,
}, info) => {
  test.slow();
  await ensureListings(db);
  await rolledUp(db);

  // The dashboard's card of Whole Foods' pasture-raised dozen in the South.
  await page.goto('/?store=whole-foods&region=south&type=pasture-raised&count=12');
  const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'Whole Foods' }) });
  await expect(card).toHaveCount(1);
  const figures = card.getByTestId('location-figures');
  await expect(figures).toContainText(FIGURES);
  await expectAccessible(page, 'dashboard with location figures');

  const link = cheapestLink(card);
  await expect(link).toHaveAttribute('href', /^\/products\/\d+\/history\?location=\d+$/);
  const href = await link.getAttribute('href');
  await link.click();
  await expect(page).toHaveURL(href!);
  await expect(page.getByText(/Whole Foods Market 77002, Houston, TX/).first()).toBeVisible();

  // The store page filtered to the South's pasture-raised dozens: its section and every card agree.
  // (The section's order, sample lines and 'Show all' are checked below the browser.)
  await page.goto('/store/whole-foods?region=south&type=pasture-raised&count=12');
  const section = page.getByRole('region', { name: 'What its stores charge today' });
  await expect(section.getByRole('listitem')).toHaveCount(1);
  await expect(section.getByRole('listitem')).toContainText('South · Pasture-Raised · 12 eggs');
  await expect(section.getByRole('listitem')).toContainText(FIGURES);
  await expect(cheapestLink(section)).toHaveAttribute('href', href!);
  const cards = page.getByRole('list', { name: 'Whole Foods prices' }).getByTestId('location-figures');
  await expect(cards).toHaveCount(3);
  for (const line of await cards.all()) await expect(line).toContainText(FIGURES);
  await snap(page, info, 'store-page');
  await expectAccessible(page, 'store page with location figures');
});
