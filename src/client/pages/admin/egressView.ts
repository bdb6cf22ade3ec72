// Words and numbers of the admin area's egress card (EgressCard.tsx): a retailer's tiers, its
// pace and budget, the tier in use, and a connection test's requests. Pure, so tested alone.
import type { EgressTestAttempt } from '#shared/egress.ts';
import type { RouterOutputs } from '#client/lib/trpc.ts';

export type RetailerEgressView = RouterOutputs['egress']['overview'][number];
export type EgressTestView = NonNullable<RetailerEgressView['latestTest']>;

const n = (value: number) => value.toLocaleString('en-US');

/** "40 requests a minute (SCRAPE_DELAY_MS)" or "12 requests a minute". */
export function paceText(view: Pick<RetailerEgressView, 'requestsPerMinute' | 'paceSource'>): string {
  return `${n(view.requestsPerMinute)} request${view.requestsPerMinute === 1 ? '' : 's'} a minute${view.paceSource === 'delay' ? ' (the scrapers’ delay)' : ''}`;
}

/** "123 of 9,000 today" or "123 today, no daily cap". */
export function budgetText(view: Pick<RetailerEgressView, 'requestsToday' | 'dailyBudget'>): string {
  return view.dailyBudget === null
    ? `${n(view.requestsToday)} today, no daily cap`
    : `${n(view.requestsToday)} of ${n(view.dailyBudget)} today (UTC)`;
}

/** A tier in a line: "direct: no proxy", "residential: 2 proxies (gw.example.com:7777, ...)". */
export function tierText(tier: RetailerEgressView['tiers'][number]): string {
  if (tier.proxies.length === 0) return `${tier.name}: no proxy`;
  const list = tier.proxies.map((p) => `${p.label} (${p.protocol}${p.authenticated ? ', with credentials' : ''})`);
  return `${tier.name}: ${tier.proxies.length === 1 ? '1 proxy' : `${tier.proxies.length} proxies`}, ${list.join(', ')}`;
}

/** The tier in use, and until when when it holds after a wall. */
export function tierInUseText(view: Pick<RetailerEgressView, 'tierInUse'>, when: (iso: string) => string): string {
  const { name, coolUntil, reason } = view.tierInUse;
  if (!coolUntil) return `Requests go through the ${name} tier.`;
  return `Requests go through the ${name} tier until ${when(coolUntil)}${reason ? ` (${reason})` : ''}, then one tier down.`;
}

/** One request of a test: the answer it got. */
export function attemptOutcome(attempt: EgressTestAttempt): string {
  if (attempt.error) return attempt.error;
  if (attempt.wall) return `HTTP ${attempt.status ?? '—'}: walled by ${attempt.wall}`;
  return `HTTP ${attempt.status ?? '—'}`;
}

export const STEP_LABELS: Record<EgressTestAttempt['step'], string> = {
  locator: 'Store locator',
  listings: 'Product list',
};

/** Whether the card should poll quickly: a test is queued or running. */
export function testActive(view: RetailerEgressView | undefined): boolean {
  const status = view?.latestTest?.status;
  return status === 'queued' || status === 'running';
}
