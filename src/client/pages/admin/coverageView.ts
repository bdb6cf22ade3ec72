// The Coverage tab's words and numbers, kept out of the components so they can be tested: a
// run's progress, the plan's cost before saving, the plan form's draft scope, failure reasons,
// the next planned chunk, and the map's shares by state. Pure: no React, no I/O.
import {
  coverageScopeSchema,
  DEFAULT_SCOPE_RADIUS_MILES,
  discoveryFoundText,
  discoverySkippedText,
  MAX_DAILY_REQUEST_BUDGET,
  MAX_REVISIT_DAYS,
  planCost,
  US_STATES,
  type CoverageScope,
  type PlanCost,
} from '#shared/coverage.ts';
import type { RouterOutputs } from '#client/lib/trpc.ts';
import { STATE_NAMES } from '#client/components/charts/usStates.ts';
import { shortDay } from '#client/components/charts/chartTheme.ts';
import { plural } from '#shared/format.ts';

// The map's state names and shapes are shared with the shoppers' map.
export { FIPS_STATES, STATE_NAMES, insetPosition, statesForMap } from '#client/components/charts/usStates.ts';

export type RetailerCoverage = RouterOutputs['coverage']['overview'][number];
export type CoverageRun = NonNullable<RetailerCoverage['visit']>;
export type RequestsPerVisit = RetailerCoverage['requestsPerVisit'];

/** "42%" (whole percent; a share under 1% that is not zero says "<1%"). */
export function percentText(share: number): string {
  if (share > 0 && share < 0.01) return '<1%';
  return `${Math.round(share * 100)}%`;
}

/** Whether any retailer's discovery or visit day is queued or running (the tab then polls fast). */
export function anyRunActive(retailers: readonly RetailerCoverage[] | undefined): boolean {
  return (retailers ?? []).some((r) => r.discovery?.active || r.visit?.active);
}

/** A coverage run's progress in words, while it runs and once it has finished. */
export function runProgressText(run: CoverageRun): string {
  if (run.kind === 'discover') {
    const found = discoveryFoundText(run.storesFound, run.storesInScope ?? run.storesFound);
    const skipped = run.storesSkipped > 0 ? `; ${discoverySkippedText(run.storesSkipped, run.skippedReasons)}` : '';
    const counts = `${plural(run.locatorCalls, 'locator call')}, ${found} (${run.storesNew.toLocaleString('en-US')} new${run.storesClosed ? `, ${run.storesClosed.toLocaleString('en-US')} closed` : ''})${skipped}`;
    // A sweep splits the areas where answers are full as it meets them, so its total is an
    // estimate until it has finished.
    const points =
      run.pointsPlanned > 0
        ? run.status === 'succeeded'
          ? `${run.pointsDone.toLocaleString('en-US')} of ${plural(run.pointsPlanned, 'point')} swept`
          : `${run.pointsDone.toLocaleString('en-US')} of about ${plural(run.pointsPlanned, 'point')} swept`
        : `${plural(run.pointsDone, 'point')} swept`;
    switch (run.status) {
      case 'queued':
        return `Queued: waiting for a worker to start the discovery (${run.scopeText}).`;
      case 'running':
        return `Running: ${points}, ${counts}.`;
      case 'succeeded':
        return `Finished: ${points}, ${counts}.`;
      default:
        return `${statusWord(run.status)}: ${points}, ${counts}.${run.message ? ` ${run.message}` : ''}`;
    }
  }
  const failed = run.storesFailed + run.storesBlocked;
  const outcome =
    failed > 0
      ? ` (${run.storesFailed.toLocaleString('en-US')} failed, ${run.storesBlocked.toLocaleString('en-US')} blocked)`
      : '';
  const stores =
    run.storesPlanned > 0
      ? `${run.storesVisited.toLocaleString('en-US')} of ${plural(run.storesPlanned, 'store')} visited${outcome}`
      : `${plural(run.storesVisited, 'store')} visited${outcome}`;
  const chunks =
    run.chunksPlanned > 0
      ? `, chunk ${Math.min(run.chunksDone + (run.status === 'running' ? 1 : 0), run.chunksPlanned)} of ${run.chunksPlanned}`
      : '';
  switch (run.status) {
    case 'queued':
      return `Queued: waiting for a worker to plan the visit day (${run.scopeText}).`;
    case 'running':
      return run.storesPlanned === 0 && run.chunksPlanned === 0
        ? "Running: planning the day's stores."
        : `Running: ${stores}${chunks}, ${plural(run.requests, 'request')}.`;
    case 'succeeded':
      return `Finished: ${stores}, ${plural(run.requests, 'request')}.`;
    default:
      return `${statusWord(run.status)}: ${stores}.${run.message ? ` ${run.message}` : ''}`;
  }
}

export function statusWord(status: CoverageRun['status']): string {
  return {
    queued: 'Queued',
    running: 'Running',
    succeeded: 'Finished',
    partial: 'Partly failed',
    failed: 'Failed',
    paused: 'Paused',
  }[status];
}

/**
 * A progress bar's value and maximum (`estimate` while a sweep's total may still grow), or null
 * while the size of the work is not known yet.
 */
export function runProgressValue(run: CoverageRun): { value: number; max: number; estimate: boolean } | null {
  if (run.kind === 'discover')
    return run.pointsPlanned > 0
      ? {
          value: Math.min(run.pointsDone, run.pointsPlanned),
          max: run.pointsPlanned,
          estimate: run.status !== 'succeeded',
        }
      : null;
  const done = run.storesVisited + run.storesFailed + run.storesBlocked;
  return run.storesPlanned > 0
    ? { value: Math.min(done, run.storesPlanned), max: run.storesPlanned, estimate: false }
    : null;
}

/** The progress bar's value for a screen reader: "12 of 40", or "12 of about 40" while the total is an estimate. */
export function progressValueText(progress: { value: number; max: number; estimate: boolean }): string {
  return `${progress.value.toLocaleString('en-US')} of ${progress.estimate ? 'about ' : ''}${progress.max.toLocaleString('en-US')}`;
}

/** The figure of the stores in scope, and what it counts. */
export function inScopeLabel(retailer: Pick<RetailerCoverage, 'inScopeBasis'>): string {
  return retailer.inScopeBasis === 'plan' ? "In the plan's scope" : 'In scope (no plan: all known)';
}

/**
 * A visit day that had no store due, in words, shown beside the last day that visited stores:
 * "Nothing due today; next due Jun 3." (today is the UTC day `today`).
 */
export function nothingDueText(nothingDue: NonNullable<RetailerCoverage['nothingDue']>, today: string): string {
  const when = nothingDue.day === today || nothingDue.day === null ? 'today' : `on ${shortDay(nothingDue.day)}`;
  const next = nothingDue.nextDueDay
    ? nothingDue.nextDueDay <= today
      ? 'next due today'
      : `next due ${shortDay(nothingDue.nextDueDay)}`
    : 'no known store in the scope';
  return `Nothing due ${when}; ${next}.`;
}

/**
 * Why "Visit now" cannot start a visit day (the server answers 409 for the same reasons), or null
 * when it can.
 */
export function visitNowBlocker(
  retailer: Pick<RetailerCoverage, 'active' | 'plan' | 'inScope' | 'visit' | 'name'>,
): string | null {
  if (!retailer.active) return `${retailer.name} is inactive: activate it in the Stores tab first.`;
  if (!retailer.plan) return "Save a plan first: a visit day visits the plan's stores.";
  if (retailer.plan.pausedAt) return 'The plan is paused: save it to resume its visits.';
  if (!retailer.plan.enabled) return 'The plan is turned off: save it to turn it on.';
  if (retailer.inScope === 0) return "No known store is in the plan's scope yet: run a discovery first.";
  if (retailer.visit?.active) return 'A visit day is already queued or running.';
  return null;
}

/** Where the requests-per-visit figure comes from, in words. */
export function requestsPerVisitText(perVisit: RequestsPerVisit): string {
  const value = `${perVisit.value.toLocaleString('en-US', { maximumFractionDigits: 2 })} ${perVisit.value === 1 ? 'request' : 'requests'}`;
  switch (perVisit.source) {
    case 'visits':
      return `${value} per visit, measured on ${plural(perVisit.samples, 'visit')} in the last 7 days`;
    case 'zip-runs':
      return `${value} per visit, measured on ${plural(perVisit.samples, 'ZIP code')} of runs in the last 7 days (no store visit yet; a ZIP also finds its store)`;
    case 'estimate':
      return `${value} per visit, estimated (nothing measured in the last 7 days)`;
  }
}

/** "1.5 s" or "400 ms". */
export function delayText(delayMs: number): string {
  return delayMs >= 1000
    ? `${(delayMs / 1000).toLocaleString('en-US', { maximumFractionDigits: 2 })} s`
    : `${delayMs} ms`;
}

/** A day's time at the delay: "under a minute", "12 minutes", "1.5 hours", "16 hours". */
export function hoursText(hours: number): string {
  const minutes = Math.round(hours * 60);
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return plural(minutes, 'minute');
  const rounded = Number(hours.toFixed(hours < 10 ? 1 : 0));
  return `${rounded.toLocaleString('en-US')} ${rounded === 1 ? 'hour' : 'hours'}`;
}

const everyDays = (days: number) => (days === 1 ? 'every day' : `every ${days} days`);

export interface CostLines {
  cost: PlanCost;
  stores: string;
  requests: string;
  time: string;
  verdict: string;
  fits: boolean;
}

/** The plan's cost before saving (and after): what it asks for a day and whether it fits. */
export function costLines(input: {
  storesInScope: number;
  perVisit: RequestsPerVisit;
  revisitDays: number;
  dailyRequestBudget: number;
  delayMs: number;
}): CostLines {
  const cost = planCost({
    storesInScope: input.storesInScope,
    requestsPerVisit: input.perVisit.value,
    revisitDays: input.revisitDays,
    dailyRequestBudget: input.dailyRequestBudget,
    delayMs: input.delayMs,
  });
  const stores = `${plural(input.storesInScope, 'known store')} in scope, ${plural(cost.storesPerDay, 'store')} a day (${everyDays(input.revisitDays)})`;
  const time = `${plural(cost.requestsPerDay, 'request')} a day: ${hoursText(cost.hoursPerDay)} at the ${delayText(input.delayMs)} delay; ${plural(cost.requestsPerDayAllowed, 'request')} a day allowed`;
  let verdict: string;
  if (input.storesInScope === 0) verdict = 'No known store is in this scope yet: run a discovery to find them.';
  else if (cost.fits) verdict = `Every store in scope can be visited ${everyDays(input.revisitDays)}.`;
  else if (cost.shortestRevisitDays !== null && cost.shortestRevisitDays <= MAX_REVISIT_DAYS)
    verdict = `Not every store can be visited ${everyDays(input.revisitDays)}: the budget allows ${everyDays(cost.shortestRevisitDays)}.`;
  else
    verdict = `Not every store can be visited ${everyDays(input.revisitDays)}, nor every ${MAX_REVISIT_DAYS} days: raise the budget or narrow the scope.`;
  return {
    cost,
    stores,
    requests: requestsPerVisitText(input.perVisit),
    time,
    verdict,
    fits: cost.fits || input.storesInScope === 0,
  };
}

/** The plan form as typed. */
export interface PlanForm {
  kind: CoverageScope['kind'];
  states: string[];
  zipCodes: string;
  radiusMiles: string;
  revisitDays: string;
  dailyRequestBudget: string;
}

/** The form of a saved plan, or of a retailer without one (nationwide, daily, its default budget). */
export function planForm(retailer: Pick<RetailerCoverage, 'plan' | 'defaultBudget'>): PlanForm {
  const plan = retailer.plan;
  const scope = plan?.scope;
  return {
    kind: scope?.kind ?? 'nationwide',
    states: scope?.kind === 'states' ? [...scope.states] : [],
    zipCodes: scope?.kind === 'zips' ? scope.zipCodes.join(', ') : '',
    radiusMiles: String(scope?.kind === 'zips' ? scope.radiusMiles : DEFAULT_SCOPE_RADIUS_MILES),
    revisitDays: String(plan?.revisitDays ?? 1),
    dailyRequestBudget: String(plan?.dailyRequestBudget ?? retailer.defaultBudget),
  };
}

/** Where the plan form's unsaved draft of a retailer is kept in this browser (it outlives a reload). */
export const planDraftKey = (store: string) => `eggwatch.admin.coveragePlanDraft.${store}`;

type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const isDraft = (value: unknown): value is PlanForm => {
  const form = value as Partial<PlanForm> | null;
  return (
    typeof form === 'object' &&
    form !== null &&
    (form.kind === 'nationwide' || form.kind === 'states' || form.kind === 'zips') &&
    Array.isArray(form.states) &&
    form.states.every((state) => typeof state === 'string') &&
    (['zipCodes', 'radiusMiles', 'revisitDays', 'dailyRequestBudget'] as const).every(
      (key) => typeof form[key] === 'string',
    )
  );
};

/** The unsaved draft of a retailer's plan form, or null (none, unreadable, or storage disabled). */
export function readPlanDraft(storage: DraftStorage | null, store: string): PlanForm | null {
  try {
    const text = storage?.getItem(planDraftKey(store));
    const value: unknown = text ? JSON.parse(text) : null;
    return isDraft(value) ? value : null;
  } catch {
    return null;
  }
}

/** Keeps the draft as typed (storage may be disabled: the draft then lasts as long as the page). */
export function writePlanDraft(storage: DraftStorage | null, store: string, form: PlanForm): void {
  try {
    storage?.setItem(planDraftKey(store), JSON.stringify(form));
  } catch {
    // Not kept; the form still holds it.
  }
}

/** Forgets the draft (saved, or discarded). */
export function clearPlanDraft(storage: DraftStorage | null, store: string): void {
  try {
    storage?.removeItem(planDraftKey(store));
  } catch {
    // Nothing kept to forget.
  }
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

const firstIssue = (error: { issues: ReadonlyArray<{ message: string }> }) =>
  error.issues[0]?.message ?? 'Check the scope';

/** The scope the form describes, checked by the API's own rules. */
export function draftScope(
  form: Pick<PlanForm, 'kind' | 'states' | 'zipCodes' | 'radiusMiles'>,
): Checked<CoverageScope> {
  const raw =
    form.kind === 'nationwide'
      ? { kind: 'nationwide' as const }
      : form.kind === 'states'
        ? { kind: 'states' as const, states: form.states }
        : {
            kind: 'zips' as const,
            zipCodes: form.zipCodes.split(/[\s,]+/),
            radiusMiles: form.radiusMiles.trim() === '' ? Number.NaN : Number(form.radiusMiles),
          };
  const parsed = coverageScopeSchema.safeParse(raw);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: firstIssue(parsed.error) };
}

function wholeNumber(text: string, name: string, min: number, max: number): Checked<number> {
  const value = Number(text.trim().replace(/,/g, ''));
  if (text.trim() === '' || !Number.isInteger(value)) return { ok: false, error: `${name} must be a whole number` };
  if (value < min || value > max)
    return { ok: false, error: `${name} must be ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}` };
  return { ok: true, value };
}

export const checkRevisitDays = (text: string) => wholeNumber(text, 'Revisit interval', 1, MAX_REVISIT_DAYS);
export const checkBudget = (text: string) => wholeNumber(text, 'Daily request budget', 1, MAX_DAILY_REQUEST_BUDGET);

/** What a failed visit's kind means, for the failing stores and the reasons. */
export const FAILURE_KINDS: Readonly<Record<string, string>> = {
  blocked: 'Blocked',
  structure: 'Page not recognised',
  http: 'HTTP error',
  'no-store': 'No store',
  config: 'Not configured',
  'rate-limited': 'Rate limited',
};

export function failureKindText(kind: string | null): string {
  return kind === null ? 'Failed' : (FAILURE_KINDS[kind] ?? kind);
}

/** A reason's line: "Blocked: The retailer answered its block page (2 stores)". */
export function reasonText(reason: RetailerCoverage['reasons'][number]): string {
  return `${failureKindText(reason.kind)}${reason.message ? `: ${reason.message}` : ''} (${plural(reason.stores, 'store')})`;
}

/** Why a plan is paused and how to resume it, as sentences. */
export function pausedText(reason: string | null): string {
  const why = reason?.trim() ? reason.trim() : 'No reason was recorded';
  return `${why}${/[.!?]$/.test(why) ? '' : '.'} Save the plan to resume its visits.`;
}

/** The next planned chunk, or when the next scheduled visit day begins, or why neither. */
export function nextChunkText(
  retailer: Pick<RetailerCoverage, 'nextChunk' | 'nextDayAt' | 'plan' | 'visit'>,
  formatWhen: (iso: string) => string,
): string {
  const next = retailer.nextChunk;
  if (next) {
    const names =
      next.firstStores.length > 0
        ? `: ${next.firstStores.join('; ')}${next.stores > next.firstStores.length ? ' and more' : ''}`
        : '';
    return `Chunk ${next.chunk + 1} of ${next.chunks}, ${plural(next.stores, 'store')}${names}.`;
  }
  if (retailer.visit?.active)
    return retailer.visit.status === 'queued'
      ? 'The visit day is queued; its chunks are planned when it starts.'
      : 'Every chunk of the running visit day has started.';
  if (!retailer.plan) return 'No plan yet: save a plan to schedule visits.';
  if (retailer.plan.pausedAt) return 'The plan is paused: no visit is scheduled until it is saved again.';
  if (retailer.nextDayAt) return `The next visit day begins ${formatWhen(retailer.nextDayAt)}.`;
  return 'No visit day is scheduled.';
}

/** The map's and the table's rows: every state with stores, its share visited in 24 hours. */
export function stateRows(
  states: RetailerCoverage['states'],
): Array<{ state: string; name: string; known: number; visitedDay: number; share: number; shareText: string }> {
  return states
    .filter((s) => s.known > 0)
    .map((s) => ({ ...s, name: STATE_NAMES[s.state] ?? s.state, shareText: percentText(s.share) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The map's colours of the share visited in 24 hours, lightest first: five equal steps of 20%
 * (the choropleth's quantize scale over 0 to 1); states without known stores are grey.
 */
export const SHARE_COLORS = ['#fee2e2', '#fdba74', '#fde047', '#86efac', '#15803d'] as const;
export const NO_STORES_COLOR = '#cbd5e1';
export const SHARE_LEGEND = ['Under 20%', '20 to 40%', '40 to 60%', '60 to 80%', '80% or more'] as const;

/** The colour (and legend step) of a share, as the map's quantize scale picks it. */
export function shareStep(share: number): number {
  return Math.min(SHARE_COLORS.length - 1, Math.max(0, Math.floor(share * SHARE_COLORS.length)));
}

export function shareColor(share: number | null): string {
  return share === null ? NO_STORES_COLOR : SHARE_COLORS[shareStep(share)]!;
}

/** The map's accessible name: what it shows and its extremes. */
export function mapLabel(retailerName: string, rows: ReturnType<typeof stateRows>): string {
  if (rows.length === 0) return `US map of ${retailerName} stores visited in the last 24 hours: no known stores yet.`;
  const visited = rows.reduce((n, r) => n + r.visitedDay, 0);
  const known = rows.reduce((n, r) => n + r.known, 0);
  return `US map of the share of ${retailerName} stores visited in the last 24 hours by state: ${plural(rows.length, 'state')} with stores, ${visited.toLocaleString('en-US')} of ${known.toLocaleString('en-US')} stores visited (${percentText(known ? visited / known : 0)}). The Table button shows each state's figures.`;
}

/** The states of the plan form's list, by name. */
export const STATE_CHOICES = [...US_STATES].sort((a, b) => (STATE_NAMES[a] ?? a).localeCompare(STATE_NAMES[b] ?? b));
