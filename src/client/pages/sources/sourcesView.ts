// The Data Sources page's wording: a source's status and its newest period, per source.
import { monthName, shortDay, type OfficialSource, type OfficialSourceView } from '#shared/official.ts';

/** "October 2026" for BLS's months, "week of 20 Nov 2026" for USDA's weeks, a day otherwise. */
export function periodLabel(source: OfficialSource, period: string): string {
  if (source === 'bls') return monthName(period);
  const year = period.slice(0, 4);
  if (source === 'usda_retail') return `week of ${shortDay(period)} ${year}`;
  return `${shortDay(period)} ${year}`;
}

export function statusText(source: Pick<OfficialSourceView, 'status'>): string {
  switch (source.status) {
    case 'ok':
      return 'Up to date';
    case 'failing':
      return 'Failing';
    case 'off':
      return 'Off';
    case 'not-fetched':
      return 'Not fetched yet';
  }
}
