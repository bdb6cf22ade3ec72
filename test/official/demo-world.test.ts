// The demo's USDA and APHIS figures, read by the worker's own parsers: every USDA region and egg
// type the comparison uses has a figure each week, the wholesale index each weekday, and its lead
// over the sample shelf price is the one the chart will measure; bird-flu detections in layer
// flocks in the map page's last 12 months, in several states.
import { describe, expect, it } from 'vitest';
import { parseAphis } from '#worker/official/aphis.ts';
import { parseRetail, parseWholesale } from '#worker/official/usda.ts';
import { readMarketCsv, sampleAnchors, sampleShelfPerDozen, SAMPLE_DAYS } from '#server/seed.ts';
import { measureLead } from '#shared/lead.ts';
import { APP_REGION_TO_USDA, usdaRetailSeriesId } from '#shared/official.ts';
import {
  DEMO_RETAIL_KEY,
  DEMO_WHOLESALE_KEY,
  DEMO_WHOLESALE_LEAD_WEEKS,
  demoAphisCsv,
  demoMarsReports,
} from './demo-world.ts';

const TODAY = new Date('2026-11-27T18:00:00Z');
const reports = demoMarsReports(TODAY);
const body = (key: string) => JSON.stringify({ results: reports[key] });

describe("the demo's official figures", () => {
  it('are the same on every run', () => {
    expect(JSON.stringify(demoMarsReports(TODAY))).toBe(JSON.stringify(reports));
    expect(demoAphisCsv(TODAY)).toBe(demoAphisCsv(TODAY));
  });

  it("give every region's advertised price of each egg type every week of the history", () => {
    const retail = parseRetail(body(DEMO_RETAIL_KEY));
    const weeks = Math.floor(SAMPLE_DAYS / 7);
    for (const region of Object.values(APP_REGION_TO_USDA))
      for (const eggType of ['standard', 'cage_free', 'organic', 'pasture_raised'] as const) {
        const series = retail.filter((o) => o.seriesId === usdaRetailSeriesId(region, eggType));
        expect(series.length).toBeGreaterThanOrEqual(weeks);
        expect(series.every((o) => (o.detail?.stores as number) > 0 && o.value > 1)).toBe(true);
      }
    expect(retail.some((o) => o.seriesId === 'usda-retail:south_central:standard')).toBe(true);
    // (the newest is this week's: Friday 27 November)
    expect(
      retail
        .map((o) => o.period)
        .sort()
        .at(-1),
    ).toBe('2026-11-27');
  });

  it('give the wholesale index each weekday, leading the shelf price by the weeks it was drawn with', () => {
    const wholesale = parseWholesale(body(DEMO_WHOLESALE_KEY));
    expect(wholesale.length).toBeGreaterThan((SAMPLE_DAYS * 5) / 7 - 2);
    expect(wholesale.every((o) => o.unit === 'cents per dozen' && o.value > 50)).toBe(true);
    // (the comparison's own weekly axis: weeks from Monday, means of the days held)
    const monday = (day: string) => {
      const d = new Date(`${day}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
      return d.toISOString().slice(0, 10);
    };
    const anchors = sampleAnchors(readMarketCsv());
    const byWeek = new Map<string, number[]>();
    for (const o of wholesale) byWeek.set(monday(o.period), [...(byWeek.get(monday(o.period)) ?? []), o.value / 100]);
    const weeks = [...byWeek.keys()].sort();
    const shelf = weeks.map((week) => {
      const first = Math.floor(Date.parse(`${week}T00:00:00Z`) / 86_400_000);
      const days = [0, 1, 2, 3, 4, 5, 6]
        .map((i) => first + i)
        .filter((d) => d <= Math.floor(TODAY.getTime() / 86_400_000));
      return days.reduce((sum, d) => sum + sampleShelfPerDozen('northeast', 'standard', d, anchors), 0) / days.length;
    });
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const lead = measureLead(
      weeks.map((w) => mean(byWeek.get(w)!)),
      shelf,
    );
    expect(lead).toMatchObject({ weeks: DEMO_WHOLESALE_LEAD_WEEKS });
  });

  it('give bird-flu detections in layer flocks, in several states over the last 12 months', () => {
    const csv = demoAphisCsv(TODAY);
    expect(csv.startsWith('State,County,Date Confirmed,Flock Type,Flock Size\r\n')).toBe(true);
    const observations = parseAphis(csv);
    const lastYear = observations.filter((o) => o.period >= '2025-11-01' && o.seriesId !== 'aphis-layers:US');
    expect(new Set(lastYear.map((o) => o.seriesId)).size).toBeGreaterThanOrEqual(4);
    expect(observations.some((o) => o.period < '2022-06-01')).toBe(true);
  });
});
