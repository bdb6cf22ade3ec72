// The Data Sources page's wording: a source's status and its newest period, per source.
import {
  monthName,
  OFFICIAL_SCHEDULE_MINUTES,
  scheduleTickAt,
  shortDay,
  type OfficialSource,
  type OfficialSourceView,
} from '#shared/official.ts';

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

/** When a future time comes, in words: "in 6 hours", "in 25 minutes", "any moment now". */
export function inWords(iso: string, now: Date = new Date()): string {
  const minutes = Math.round((Date.parse(iso) - now.getTime()) / 60_000);
  if (minutes <= 1) return 'any moment now';
  if (minutes < 90) return `in ${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `in ${hours} hours`;
  return `in ${Math.round(hours / 24)} days`;
}

/** The expected next release: "expected about 15 Dec", or "overdue (expected about 15 Jun)". */
export function releaseText(day: string, today: string = new Date().toISOString().slice(0, 10)): string {
  return day < today
    ? `next release overdue (expected about ${shortDay(day)})`
    : `next release expected about ${shortDay(day)}`;
}

/**
 * When the worker asks the source next: the schedule's first tick at or after its due time, or
 * after now when that has passed or it was never fetched (the first fetch); null when it is off.
 * "first fetch in 12 minutes (the schedule looks every 15 minutes)", "next fetch in 6 hours".
 */
export function nextFetchText(
  source: Pick<OfficialSourceView, 'nextFetch' | 'nextFetchAt'>,
  now: Date = new Date(),
): { at: string; text: string } | null {
  if (source.nextFetch === 'off') return null;
  const due = source.nextFetchAt ? new Date(source.nextFetchAt) : now;
  const at = scheduleTickAt(due > now ? due : now).toISOString();
  return source.nextFetch === 'first'
    ? { at, text: `first fetch ${inWords(at, now)} (the schedule looks every ${OFFICIAL_SCHEDULE_MINUTES} minutes)` }
    : { at, text: `next fetch ${inWords(at, now)}` };
}
