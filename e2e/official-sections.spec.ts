// The official figures' sections beyond the compare page. The dashboard's Shelf, advertised and
// wholesale follows the dashboard's applied region and egg type. The map page's bird-flu detections
// by state (APHIS): with state-week figures written to the
// e2e database (as the worker writes them, then its NOTIFY), the section's map and its table list
// each state with its hens and a link to APHIS's page, and the page stays clean for axe. The
// figures are removed afterwards; the national series (the benchmark chart's) is never touched.
import { expect, test } from './db.ts';
import { networkQuiet } from './network.ts';
import { axeBuilder } from './ui.ts';

const APHIS_PAGE =
  'https://www.aphis.usda.gov/livestock-poultry-disease/avian/avian-influenza/hpai-detections/commercial-backyard-flocks';

/** A Monday in the month before today's (inside the section's 12 months). */
function recentMonday(): string {
  const day = new Date();
  day.setUTCDate(1);
  day.setUTCMonth(day.getUTCMonth() - 1);
  while (day.getUTCDay() !== 1) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

test('the map page lists bird-flu detections by state, each linked to APHIS, and stays clean for axe', async ({
  page,
  db,
}) => {
  const week = recentMonday();
  const rows = [
    { state: 'IA', birds: 1_750_000, detections: 2 },
    { state: 'OH', birds: 2_000_000, detections: 1 },
  ];
  for (const r of rows)
    await db`
      insert into official_observations (source, series_id, period, value, value_text, unit, detail, fetched_at)
      values ('aphis_hpai', ${`aphis-layers:${r.state}`}, ${week}, ${r.birds}, ${String(r.birds)}, 'birds',
              ${db.json({ detections: r.detections })}, now())
      on conflict (series_id, period) do nothing`;
  await db`select pg_notify('eggwatch_official', 'aphis_hpai')`;
  try {
    await page.goto('/map');
    const section = page.getByRole('region', { name: 'Bird-flu detections by state' });
    await section.getByText('Table of detections by state').click();
    const ohio = section.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Ohio', exact: true }) });
    await expect(ohio.getByRole('cell', { name: '2,000,000' })).toBeVisible({ timeout: 20_000 });
    await expect(ohio.getByRole('link', { name: 'Ohio: the source, USDA APHIS' })).toHaveAttribute('href', APHIS_PAGE);
    const iowa = section.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Iowa', exact: true }) });
    await expect(iowa.getByRole('cell', { name: '1,750,000' })).toBeVisible();
    // Most hens first.
    await expect(section.getByRole('row').nth(1)).toContainText('Ohio');
    await expect(section.getByRole('img', { name: /^Layer hens affected by bird flu by state: 2 states/ })).toBeVisible(
      { timeout: 20_000 },
    );
    await networkQuiet(page);
    const results = await axeBuilder(page).include('section[aria-labelledby="bird-flu-heading"]').analyze();
    const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 120)).join(' | ')}`),
      'serious or critical axe violations',
    ).toEqual([]);
  } finally {
    await db`delete from official_observations where series_id in ('aphis-layers:IA', 'aphis-layers:OH') and period = ${week}`;
    await db`select pg_notify('eggwatch_official', 'aphis_hpai')`;
  }
});

test('the dashboard shows Shelf, advertised and wholesale for its applied region, with the lead and outlook lines', async ({
  page,
}) => {
  await page.goto('/?region=west&type=organic');
  // The section loads when it comes near the screen: scroll to the map card below it.
  await page.getByRole('region', { name: 'Egg prices by state' }).scrollIntoViewIfNeeded();
  const section = page.getByRole('region', { name: 'Shelf, advertised and wholesale' });
  await expect(section.getByRole('combobox', { name: 'Region' })).toHaveValue('west', { timeout: 20_000 });
  await expect(section.getByText(/^(Shelf prices have|No lead of wholesale)/)).toBeVisible();
  await expect(section.getByText(/^(Outlook for the next|No outlook)/)).toBeVisible();
  await section.getByText('Table of the last 12 weeks').click();
  await expect(section.getByRole('columnheader', { name: 'Wholesale' })).toBeVisible();
});
