// The wording of the shelf, advertised and wholesale section.
import type { Comparison } from '#shared/official.ts';

const USDA_REGION_LABELS: Record<string, string> = {
  national: 'the nation',
  northeast: 'the Northeast',
  southeast: 'the Southeast',
  midwest: 'the Midwest',
  south_central: 'the South Central region',
  southwest: 'the Southwest',
  northwest: 'the Northwest',
  alaska: 'Alaska',
  hawaii: 'Hawaii',
};

export const usdaRegionLabel = (region: string) => USDA_REGION_LABELS[region] ?? region;

/** "shelf prices have followed wholesale by about 3 weeks", or why no lead is stated. */
export function leadText(comparison: Comparison): string {
  const lead = comparison.shelfLead;
  if (!lead) return 'No lead of wholesale over shelf prices shows in the history held so far.';
  if (lead.weeks === 0) return 'Shelf prices have moved with wholesale in the same week.';
  return `Shelf prices have followed wholesale by about ${lead.weeks} week${lead.weeks === 1 ? '' : 's'} (correlation ${lead.correlation.toFixed(2)} over ${lead.pairs} weeks).`;
}

/** The outlook's line with both errors, or "no outlook" with them when it lost. */
export function outlookText(comparison: Comparison): string {
  const o = comparison.outlook;
  if (!o) return 'No outlook: the history held is too short to test one.';
  const errors = `backtest error $${o.modelError.toFixed(2)} a dozen against $${o.naiveError.toFixed(2)} for "no change", over ${o.backtestWeeks} forecasts`;
  if (!o.shown)
    return `No outlook: its ${errors.replace('backtest error', 'backtest error was')} (it did not beat no change).`;
  return `Outlook for the next ${o.points.length} week${o.points.length === 1 ? '' : 's'}: ${o.points
    .map((p) => `$${p.shelf.toFixed(2)}`)
    .join(', ')} a dozen (${errors}).`;
}

/** "advertised in the Northeast this week: $4.12 a dozen, 1,840 stores". */
export function advertisedText(comparison: Comparison): string | null {
  const a = comparison.latestAdvertised;
  if (!a) return null;
  const stores = a.stores !== null ? `, ${a.stores.toLocaleString('en-US')} stores` : '';
  return `advertised in ${usdaRegionLabel(comparison.usdaRegion)} the week of ${a.week}: $${a.price.toFixed(2)} a dozen${stores}`;
}
