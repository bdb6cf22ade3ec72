// Shelf, advertised and wholesale against the real PostgreSQL: the weeks joined on one axis
// (wholesale converted from cents), the lead measured (shelf 3 weeks behind wholesale here), the
// outlook shown with both errors when it beats no change, and USDA's newest advertised figure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { callerFor } from '../../../test/caller.ts';
import { advertisedText, leadText, outlookText } from '../../client/pages/compare/comparisonView.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
});
afterAll(() => db.drop());

const monday = (weeksAgo: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7) - 7 * weeksAgo);
  return d.toISOString().slice(0, 10);
};

describe('official.comparison', () => {
  it('joins the three series by week, measures the lead and shows an outlook that beat no change', async () => {
    const n = 40;
    const wholesaleCents = Array.from({ length: n }, (_, i) => 200 + 80 * Math.sin(i / 2.3) + 25 * Math.cos(i * 1.7));
    const [fetch] = await db.sql<Array<{ id: number }>>`
      insert into official_fetches (source, url, outcome) values ('usda_wholesale', 'http://stand-in', 'parsed') returning id`;
    for (let i = 0; i < n; i += 1) {
      const week = monday(n - 1 - i);
      const cents = wholesaleCents[i]!.toFixed(2);
      await db.sql`
        insert into official_observations (source, series_id, period, value, value_text, unit, published_on, fetched_at, fetch_id)
        values ('usda_wholesale', 'usda-wholesale:national', ${week}, ${Number(cents)}, ${cents}, 'cents per dozen', ${week}, now(), ${fetch!.id})`;
      if (i >= 3) {
        const shelf = 1 + 0.8 * (wholesaleCents[i - 3]! / 100);
        await db.sql`
          insert into price_daily_rollups (day, egg_type, region, avg_per_dozen, min_per_dozen, max_per_dozen, observations)
          values (${week}, 'cage_free', 'northeast', ${shelf}, ${shelf}, ${shelf}, 3)`;
      }
    }
    await db.sql`
      insert into official_observations (source, series_id, period, value, value_text, unit, detail, published_on, fetched_at, fetch_id)
      values ('usda_retail', 'usda-retail:northeast:cage_free', ${monday(0)}, 4.12, '4.12', 'USD per dozen (advertised)',
              '{"low": 2.99, "high": 5.49, "stores": 1840}', ${monday(0)}, now(), ${fetch!.id})`;
    const result = await callerFor({ sql: db.sql }).official.comparison({ region: 'northeast', eggType: 'cage_free' });
    expect(result.usdaRegion).toBe('northeast');
    expect(result.shelfIsSample).toBe(true);
    expect(result.weeks.length).toBeGreaterThanOrEqual(n);
    expect(result.weeks.at(-1)).toMatchObject({ advertised: 4.12 });
    expect(result.weeks.at(-1)!.wholesale).toBeCloseTo(wholesaleCents[n - 1]! / 100, 4);
    expect(result.shelfLead).toMatchObject({ weeks: 3 });
    expect(result.outlook).toMatchObject({ shown: true });
    expect(result.outlook!.modelError).toBeLessThan(result.outlook!.naiveError);
    expect(result.outlook!.points).toHaveLength(3);
    expect(leadText(result)).toMatch(/^Shelf prices have followed wholesale by about 3 weeks/);
    expect(outlookText(result)).toMatch(/^Outlook for the next 3 weeks: .* against \$\d+\.\d\d for "no change"/);
    expect(advertisedText(result)).toBe(
      `advertised in the Northeast the week of ${monday(0)}: $4.12 a dozen, 1,840 stores`,
    );
  });

  it('says no outlook and no lead where there is no history', async () => {
    const result = await callerFor({ sql: db.sql }).official.comparison({ region: 'west', eggType: 'organic' });
    expect(result.shelfLead).toBeNull();
    expect(result.outlook).toBeNull();
    expect(outlookText(result)).toMatch(/^No outlook/);
  });
});
